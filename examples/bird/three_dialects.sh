#!/bin/sh
# BIRD mini-dev in its three dialects, each on its own engine: the published schemas
# (../shared/benchmarks/bird-minidev/schemas/*.sql, no rows) built into empty SQLite databases,
# copied into a throwaway PostgreSQL and a throwaway MariaDB with sqlmorph-load --temporal-types
# (DATE columns are dates there, as BIRD's PostgreSQL and MySQL SQL expects) and, for PostgreSQL,
# --primary-keys, then the gold SQL of
# each dialect — and the published GPT-4-Turbo predictions where a dialect has them — checked on
# its engine with the sql_correctness judge: does each statement parse and bind?
#
#   examples/bird/three_dialects.sh [BIRD_DIR]        (KEEP=1 leaves the servers running)
#
# sqlmorph is $SQLMORPH, else build/sqlmorph (BUILD_DIR: another build folder), else the one on
# PATH; sqlmorph-load is $SQLMORPH_LOAD, else the one beside it, else on PATH. The results go to
# BUILD_DIR/bird-three-dialects.
#
# No rows are published with mini-dev, so this measures binding, not execution accuracy.
set -eu

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
bird="${1:-$root/../shared/benchmarks/bird-minidev}"
out="$build/bird-three-dialects"

. "$root/examples/lib/programs.sh"
find_sqlmorph "$build"
find_sqlmorph_load
[ -f "$bird/mini_dev_sqlite.json" ] || { echo "no BIRD mini-dev in $bird" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "the sqlite3 shell is needed (apt-get install sqlite3)" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out/db"
. "$root/examples/lib/servers.sh"
start_servers "$out"

# The published DDL names each table's primary key in a comment ("-- 4500 rows, primary key:
# (account_id)"): it becomes a PRIMARY KEY clause, which sqlmorph-load --primary-keys keeps in
# PostgreSQL (BIRD's PostgreSQL SQL groups by a key and selects columns that depend on it).
with_primary_keys() {
  python3 -c '
import re, sys
key = None
for line in open(sys.argv[1]):
    m = re.search(r"primary key: \((.*)\)", line) if line.startswith("--") else None
    if m:
        key = m.group(1)
    if line.strip() == ");" and key:
        sys.stdout.write(",\nPRIMARY KEY (" + key + ")\n")
        key = None
    sys.stdout.write(line)' "$1"
}

echo "== empty SQLite databases from the published schemas (primary keys from their comments)"
for schema in "$bird"/schemas/*.sql; do
  db_id="$(basename "$schema" .sql)"
  mkdir -p "$out/db/$db_id"
  with_primary_keys "$schema" | sqlite3 "$out/db/$db_id/$db_id.sqlite"
done
ls "$out/db" | tr '\n' ' '
echo

echo "== copied into PostgreSQL and MariaDB (--temporal-types)"
"$sqlmorph_load" --quiet --temporal-types --primary-keys --from "sqlite-dir:$out/db" --replace \
  --grant sqlmorph_reader --to "postgres:host=$PG_HOST port=$PG_PORT user=$PG_SUPERUSER dbname={db_id}"
"$sqlmorph_load" --quiet --temporal-types --from "sqlite-dir:$out/db" --replace --grant sqlmorph_reader \
  --to "mysql:socket=$MARIADB_SOCKET user=root database={db_id}"

config="$out/sqlmorph.toml"
write_server_config "$config"

# The gold SQL of a dialect as a BIRD prediction file, so the judge checks it.
as_predictions() {
  python3 -c '
import json, sys
items = json.load(open(sys.argv[1]))
print(json.dumps({str(i): q["SQL"] + "\t----- bird -----\t" + q["db_id"] for i, q in enumerate(items)}))' "$1"
}

check() {  # DIALECT BACKEND NAME=PREDICTIONS
  "$sqlmorph" --config "$config" eval --benchmark bird --gold "$bird/mini_dev_$1.json" --pred "$3" \
    --db-root "$out/db" --backend "$2" --techniques none --judges sql_correctness --progress none \
    --out "$out/$1-$(echo "$3" | cut -d= -f1)" >/dev/null
  python3 - "$out/$1-$(echo "$3" | cut -d= -f1)/results.jsonl" "$1" "$2" "$(echo "$3" | cut -d= -f1)" <<'PY'
import json, sys, collections
bound = total = 0
problems = collections.Counter()
failures = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("technique") != "judge:sql_correctness":
        continue
    total += 1
    if r.get("label") == 1:
        bound += 1
    else:
        problems[r.get("problem") or r.get("status")] += 1
        why = (r.get("rationales") or [r.get("error") or ""])[0]
        failures.append((r["id"], r.get("db_id"), why[:150]))
print(f"{sys.argv[2]:<10} on {sys.argv[3]:<6} {sys.argv[4]:<12} {bound}/{total} bind  " + ", ".join(f"{k} {v}" for k, v in problems.most_common()))
if sys.argv[4] == "gold":  # the exceptions, each with the engine's reason
    for f in failures:
        print("    ", *f)
PY
}

echo
echo "== does each statement bind on its engine? (sql_correctness)"
for dialect in sqlite postgresql mysql; do
  as_predictions "$bird/mini_dev_$dialect.json" >"$out/gold_$dialect.json"
done
check sqlite sqlite "gold=$out/gold_sqlite.json"
check postgresql pg "gold=$out/gold_postgresql.json"
check mysql maria "gold=$out/gold_mysql.json"
[ -f "$bird/predictions/predict_mini_dev_gpt-4-turbo_sqlite.json" ] &&
  check sqlite sqlite "gpt-4-turbo=$bird/predictions/predict_mini_dev_gpt-4-turbo_sqlite.json"
[ -f "$bird/predictions/predict_mini_dev_gpt-4-turbo_postgresql.json" ] &&
  check postgresql pg "gpt-4-turbo=$bird/predictions/predict_mini_dev_gpt-4-turbo_postgresql.json"
echo
echo "== the three dialects in one run (examples/bird/three_dialects.lua: examples:on(backend) per dialect)"
"$sqlmorph" --config "$config" run "$here/three_dialects.lua" "$bird" "$out/db" "$out/one-run" "$out"
echo
echo "results in $out"
