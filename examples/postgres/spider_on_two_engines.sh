#!/bin/sh
# Spider dev on two engines: the SQLite databases as published, and the same data loaded into a
# throwaway PostgreSQL. Evaluates a prediction file on both, side by side, then with gold results
# from SQLite and predictions run on PostgreSQL.
#
#   examples/postgres/spider_on_two_engines.sh [PREDICTION_FILE]
#
# sqlmorph is $SQLMORPH, else build/sqlmorph (BUILD_DIR: another build folder), else the one on
# PATH; sqlmorph-load is $SQLMORPH_LOAD, else the one beside it, else on PATH. The results go to
# BUILD_DIR/spider-two-engines.
#
# Needs ../shared (the Spider dev benchmark) next to the checkout and the Debian packages `make deps`
# installs (postgresql among them). The cluster lives in /tmp, listens on a unix socket only, and
# is removed at the end (KEEP=1 keeps it running and prints how to reach it).
set -eu

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
spider="$root/../shared/benchmarks/spider-dev"
pred="${1:-$spider/predictions/dail-sql-gpt4.sql}"
out="$build/spider-two-engines"
state="$build/spider-two-engines.pg.env"

. "$root/examples/lib/programs.sh"
find_sqlmorph "$build"
find_sqlmorph_load
[ -f "$spider/dev_gold.sql" ] || { echo "the Spider dev benchmark is not in $spider" >&2; exit 2; }

mkdir -p "$build"
"$root/tests/servers/postgres.sh" start "$state"
if [ "${KEEP:-0}" != "1" ]; then
  trap '"$root/tests/servers/postgres.sh" stop "$state"' EXIT
fi
. "$state"

echo "== loading the Spider dev databases into PostgreSQL"
"$sqlmorph_load" --from "sqlite-dir:$spider/database" --replace --grant sqlmorph_reader \
  --to "postgres:host=$PG_HOST port=$PG_PORT user=$PG_SUPERUSER dbname={db_id}"

# The configuration: sqlmorph's defaults (its plugins and scripts are found beside it) plus a
# backend `pg` reaching each database by its db_id, as a role that can only read.
config="$out.toml"
mkdir -p "$out"
{
  echo "[backends.pg]"
  echo "plugin = \"postgres\""
  echo "target = \"host=$PG_HOST port=$PG_PORT dbname={db_id} user=sqlmorph_reader\""
} >"$config"

echo
echo "== $(basename "$pred") on SQLite and on PostgreSQL, side by side"
"$sqlmorph" --config "$config" eval --benchmark spider --gold "$spider/dev_gold.sql" --pred "$pred" \
  --db-root "$spider/database" --backends sqlite,pg --penalize-extra-pred-cols both \
  --out "$out/side-by-side" --progress none

echo
echo "== gold results from SQLite, predictions run on PostgreSQL"
"$sqlmorph" --config "$config" eval --benchmark spider --gold "$spider/dev_gold.sql" --pred "$pred" \
  --db-root "$spider/database" --gold-backend sqlite --pred-backend pg \
  --out "$out/gold-sqlite-pred-pg" --progress none

if [ "${KEEP:-0}" = "1" ]; then
  echo
  echo "the cluster keeps running: psql -h $PG_HOST -p $PG_PORT -U $PG_SUPERUSER concert_singer"
  echo "stop it with: $root/tests/servers/postgres.sh stop $state"
fi
