#!/bin/sh
# A throwaway PostgreSQL cluster for the tests: initdb in a temporary folder, a unix socket in that
# folder, no TCP listener, trust authentication for local connections only.
#
#   tests/servers/postgres.sh start STATE_FILE   start a cluster; write its settings to STATE_FILE
#   tests/servers/postgres.sh stop STATE_FILE    stop it and delete its folder
#
# STATE_FILE is a shell fragment: PG_DIR (data + socket folder), PG_HOST (the socket folder),
# PG_PORT, PG_SUPERUSER. Run as root, the cluster runs as the `postgres` system user (PostgreSQL
# refuses to run as root); otherwise as the current user. Exits non-zero with a message naming
# what is missing when the server cannot start.
set -eu

command="${1:-}"
state="${2:-}"
if [ -z "$command" ] || [ -z "$state" ]; then
  echo "usage: $0 start|stop STATE_FILE" >&2
  exit 2
fi

bindir=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && bindir="$d"
done
if [ -z "$bindir" ] && command -v pg_config >/dev/null 2>&1; then
  bindir="$(pg_config --bindir)"
fi

as_owner() {
  if [ "$(id -u)" = "0" ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$command" in
  start)
    if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
      echo "postgres test server: initdb not found (install the Debian package postgresql; make test does)" >&2
      exit 1
    fi
    if [ -f "$state" ]; then
      # A cluster left by an interrupted run: stop it first.
      "$0" stop "$state" || true
    fi
    dir="$(mktemp -d /tmp/sqlmorph-pg.XXXXXX)"
    owner="$(id -un)"
    if [ "$(id -u)" = "0" ]; then
      if ! id postgres >/dev/null 2>&1; then
        echo "postgres test server: running as root needs the 'postgres' system user (Debian's postgresql package creates it)" >&2
        exit 1
      fi
      chown postgres "$dir"
      owner=postgres
    fi
    port=5432
    if ! as_owner "$bindir/initdb" -D "$dir/data" -U "$owner" --auth=trust --locale=C --encoding=UTF8 \
        >"$dir/initdb.log" 2>&1; then
      echo "postgres test server: initdb failed:" >&2
      cat "$dir/initdb.log" >&2
      exit 1
    fi
    if ! as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses='' -k $dir -p $port -c fsync=off -c max_connections=60" start >/dev/null 2>&1; then
      echo "postgres test server: the server did not start; its log:" >&2
      cat "$dir/server.log" >&2 || true
      exit 1
    fi
    mkdir -p "$(dirname "$state")"
    {
      echo "PG_DIR=$dir"
      echo "PG_HOST=$dir"
      echo "PG_PORT=$port"
      echo "PG_SUPERUSER=$owner"
      echo "PG_BINDIR=$bindir"
    } >"$state"
    echo "postgres test server: running in $dir (socket only, port $port, superuser $owner)"
    ;;
  stop)
    if [ ! -f "$state" ]; then
      exit 0
    fi
    dir="$(sed -n 's/^PG_DIR=//p' "$state")"
    if [ -n "$dir" ] && [ -d "$dir/data" ]; then
      as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    case "$dir" in
      /tmp/sqlmorph-pg.*) rm -rf "$dir" ;;
    esac
    rm -f "$state"
    echo "postgres test server: stopped"
    ;;
  *)
    echo "usage: $0 start|stop STATE_FILE" >&2
    exit 2
    ;;
esac
