#!/bin/sh
# A throwaway MariaDB server for the tests: mariadb-install-db into a temporary folder, a unix
# socket in that folder, no TCP listener (--skip-networking), its own pid file; root may connect
# through the socket without a password (nothing else can reach it). Table names are compared
# case-insensitively (lower_case_table_names = 1), as SQLite compares them: Spider's and BIRD's SQL
# writes `Singer` for a table `singer`. LOAD DATA LOCAL is on for sqlmorph-load.
#
#   tests/servers/mariadb.sh start STATE_FILE   start a server; write its settings to STATE_FILE
#   tests/servers/mariadb.sh stop STATE_FILE    stop it (by pid) and delete its folder
#
# STATE_FILE is a shell fragment: MARIADB_DIR, MARIADB_SOCKET, MARIADB_PID_FILE. Run as root, the
# server runs as the `mysql` system user (Debian's mariadb-server creates it); otherwise as the
# current user. Exits non-zero with a message naming what is missing when the server cannot start.
set -eu

command="${1:-}"
state="${2:-}"
if [ -z "$command" ] || [ -z "$state" ]; then
  echo "usage: $0 start|stop STATE_FILE" >&2
  exit 2
fi

. "$(dirname "$0")/stop_pid_file.sh"

case "$command" in
  start)
    install_db="$(command -v mariadb-install-db || true)"
    server="$(command -v mariadbd || true)"
    [ -z "$server" ] && [ -x /usr/sbin/mariadbd ] && server=/usr/sbin/mariadbd
    if [ -z "$install_db" ] || [ -z "$server" ]; then
      echo "mariadb test server: mariadb-install-db or mariadbd not found (install the Debian package mariadb-server; make test does)" >&2
      exit 1
    fi
    if [ -f "$state" ]; then
      # A server left by an interrupted run: stop it first.
      "$0" stop "$state" || true
    fi
    dir="$(mktemp -d /tmp/sqlmorph-mariadb.XXXXXX)"
    user="$(id -un)"
    if [ "$(id -u)" = "0" ]; then
      if ! id mysql >/dev/null 2>&1; then
        echo "mariadb test server: running as root needs the 'mysql' system user (Debian's mariadb-server creates it)" >&2
        exit 1
      fi
      chown mysql "$dir"
      chmod 755 "$dir"
      user=mysql
    fi
    if ! "$install_db" --no-defaults --datadir="$dir/data" --user="$user" --auth-root-authentication-method=normal \
        --skip-test-db --lower-case-table-names=1 >"$dir/install.log" 2>&1; then
      echo "mariadb test server: mariadb-install-db failed:" >&2
      cat "$dir/install.log" >&2
      rm -rf "$dir"
      exit 1
    fi
    mkdir "$dir/files"
    "$server" --no-defaults --datadir="$dir/data" --user="$user" --skip-networking --socket="$dir/mariadb.sock" \
      --pid-file="$dir/mariadb.pid" --log-error="$dir/server.log" --innodb-buffer-pool-size=64M --skip-log-bin \
      --max-connections=200 --secure-file-priv="$dir/files" --lower-case-table-names=1 --local-infile=1 >/dev/null 2>&1 &
    i=0
    until [ -S "$dir/mariadb.sock" ] && [ -f "$dir/mariadb.pid" ]; do
      if [ $i -ge 300 ]; then
        echo "mariadb test server: the server did not start within 30 s; its log:" >&2
        cat "$dir/server.log" >&2 || true
        stop_pid_file "$dir/mariadb.pid"
        rm -rf "$dir"
        exit 1
      fi
      sleep 0.1
      i=$((i + 1))
    done
    mkdir -p "$(dirname "$state")"
    {
      echo "MARIADB_DIR=$dir"
      echo "MARIADB_SOCKET=$dir/mariadb.sock"
      echo "MARIADB_PID_FILE=$dir/mariadb.pid"
    } >"$state"
    echo "mariadb test server: running in $dir (socket only, pid $(cat "$dir/mariadb.pid"))"
    ;;
  stop)
    if [ ! -f "$state" ]; then
      exit 0
    fi
    dir="$(sed -n 's/^MARIADB_DIR=//p' "$state")"
    case "$dir" in
      /tmp/sqlmorph-mariadb.*)
        stop_pid_file "$dir/mariadb.pid"
        rm -rf "$dir"
        ;;
    esac
    rm -f "$state"
    echo "mariadb test server: stopped"
    ;;
  *)
    echo "usage: $0 start|stop STATE_FILE" >&2
    exit 2
    ;;
esac
