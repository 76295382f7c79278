#!/bin/sh
# Spider dev on four engines: the SQLite databases as published, and the same data copied by
# sqlmorph-load into a throwaway PostgreSQL, a throwaway MariaDB and DuckDB files. One prediction
# file is evaluated on all four, side by side, in one run (--backends sqlite,pg,maria,duck): the
# records of an example carry its engine in their id (`dail-sql-gpt4:12@maria`), and the summary
# has a column per engine.
#
#   examples/engines/spider_on_four_engines.sh [PREDICTION_FILE]
#
# sqlmorph is $SQLMORPH, else build/sqlmorph (BUILD_DIR: another build folder), else the one on
# PATH; sqlmorph-load is $SQLMORPH_LOAD, else the one beside it, else on PATH. The results go to
# BUILD_DIR/spider-four-engines.
#
# Needs ../shared (the Spider dev benchmark) next to the checkout, and what `make deps` installs
# (postgresql, mariadb-server, DuckDB's library). The servers live in the build tree, listen on unix
# sockets only, and are stopped at the end (KEEP=1 keeps them running and prints how to reach them).
# Why the engines' numbers differ, query by query, is what tests/backends/test_cross_backend_parity.cpp
# checks (docs/backends.md lists the rules).
set -eu

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
spider="$root/../shared/benchmarks/spider-dev"
pred="${1:-$spider/predictions/dail-sql-gpt4.sql}"
out="$build/spider-four-engines"

. "$root/examples/lib/programs.sh"
find_sqlmorph "$build"
find_sqlmorph_load
[ -f "$spider/dev_gold.sql" ] || { echo "the Spider dev benchmark is not in $spider" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out"
. "$root/examples/lib/servers.sh"
start_servers "$out"

echo "== the Spider dev databases copied into PostgreSQL, MariaDB and DuckDB files"
"$sqlmorph_load" --quiet --from "sqlite-dir:$spider/database" --replace --grant sqlmorph_reader \
  --to "postgres:host=$PG_HOST port=$PG_PORT user=$PG_SUPERUSER dbname={db_id}"
"$sqlmorph_load" --quiet --from "sqlite-dir:$spider/database" --replace --grant sqlmorph_reader \
  --to "mysql:socket=$MARIADB_SOCKET user=root database={db_id}"
"$sqlmorph_load" --from "sqlite-dir:$spider/database" --replace \
  --to "duckdb:$out/duckdb/{db_id}/{db_id}.duckdb" | tail -n 1

# sqlmorph's defaults plus three backends, each reaching a database by its db_id with an account
# (or a file mode) that can only read.
config="$out/sqlmorph.toml"
write_server_config "$config"
cat >>"$config" <<TOML
[backends.duck]
plugin = "duckdb"
target = "$out/duckdb/{db_id}/{db_id}.duckdb"
TOML

echo
echo "== $(basename "$pred") on SQLite, PostgreSQL, MariaDB and DuckDB, side by side"
"$sqlmorph" --config "$config" eval --benchmark spider --gold "$spider/dev_gold.sql" --pred "$pred" \
  --db-root "$spider/database" --backends sqlite,pg,maria,duck --penalize-extra-pred-cols both \
  --techniques execution_accuracy,exact_column_and_exact_cell,exact_column_and_partial_cell,no_column_and_partial_cell,test_suite,spider_official_exec,malloy \
  --out "$out/side-by-side" --progress none

echo
echo "== per engine: how many gold and predicted queries ran (execution_accuracy)"
python3 - "$out/side-by-side/results.jsonl" <<'PY'
import collections, json, sys
status = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["technique"] == "execution_accuracy":
        status[r["id"].rsplit("@", 1)[1]][r["status"]] += 1
for engine in ("sqlite", "pg", "maria", "duck"):
    s = status[engine]
    print(f"{engine:<7} " + ", ".join(f"{k} {v}" for k, v in sorted(s.items())))
PY

if [ "${KEEP:-0}" = "1" ]; then
  echo
  echo "the servers keep running: psql -h $PG_HOST -p $PG_PORT -U $PG_SUPERUSER concert_singer;"
  echo "mariadb --socket=$MARIADB_SOCKET -u root concert_singer"
  echo "stop them with: $root/tests/servers/postgres.sh stop $pg_state; $root/tests/servers/mariadb.sh stop $maria_state"
fi
echo "results in $out/side-by-side"
