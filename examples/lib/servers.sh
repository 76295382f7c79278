# Sourced by the example scripts that run on server engines (after they set `root` and `build`):
# a throwaway PostgreSQL and a throwaway MariaDB (tests/servers/*.sh: in the build tree, on unix
# sockets only), and the sqlmorph.toml that reaches both as the reading account sqlmorph-load
# --grant made.

# start_servers DIR: both servers, their settings in DIR/pg.env and DIR/maria.env, read into the
# script (PG_HOST, PG_PORT, PG_SUPERUSER, MARIADB_SOCKET); stopped when the script exits, however it
# exits, unless KEEP=1.
start_servers() {
  pg_state="$1/pg.env"
  maria_state="$1/maria.env"
  if [ "${KEEP:-0}" != "1" ]; then
    # (set first: a server that fails to start must not leave the other one running)
    trap '"$root/tests/servers/postgres.sh" stop "$pg_state" >/dev/null; "$root/tests/servers/mariadb.sh" stop "$maria_state" >/dev/null' EXIT
  fi
  "$root/tests/servers/postgres.sh" start "$pg_state" >/dev/null
  "$root/tests/servers/mariadb.sh" start "$maria_state" >/dev/null
  . "$pg_state"
  . "$maria_state"
}

# write_server_config FILE: the backends pg and maria reaching each database by its db_id (sqlmorph
# finds its plugins and scripts beside it, built or installed). The caller may append more backends.
write_server_config() {
  cat >"$1" <<TOML
[backends.pg]
plugin = "postgres"
target = "host=$PG_HOST port=$PG_PORT dbname={db_id} user=sqlmorph_reader"
[backends.maria]
plugin = "mysql"
target = "socket=$MARIADB_SOCKET user=sqlmorph_reader database={db_id}"
TOML
}
