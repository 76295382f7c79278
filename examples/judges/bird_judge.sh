#!/bin/sh
# Two judges on a BIRD mini-dev question, end to end and offline:
#   1. builds an empty SQLite database from the published DDL (schemas/<db_id>.sql),
#   2. starts the loopback fake OpenAI server (build/tests/fake_openai) on a free port,
#   3. declares the LLM judge in a sqlmorph.toml pointing at it,
#   4. asks `sqlmorph judge` about the question's gold SQL with sql_adherence and sql_correctness.
#
#   examples/judges/bird_judge.sh [BIRD_MINIDEV_DIR [QUESTION_INDEX [sqlmorph judge options...]]]
#
# BIRD_MINIDEV_DIR defaults to ../shared/benchmarks/bird-minidev next to the checkout; QUESTION_INDEX
# (the position in mini_dev_sqlite.json) to 0; further arguments go to `sqlmorph judge` (e.g. --json).
# sqlmorph is $SQLMORPH, else build/sqlmorph, else the one on PATH; the fake server is $FAKE_OPENAI,
# else build/tests/fake_openai (built with the tests). Needs the sqlite3 command-line shell.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bird=${1:-$repo/../shared/benchmarks/bird-minidev}
index=${2:-0}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
. "$repo/examples/lib/programs.sh"
find_sqlmorph "$repo/build"
fake_openai=${FAKE_OPENAI:-$repo/build/tests/fake_openai}

if [ ! -f "$bird/mini_dev_sqlite.json" ]; then
  echo "bird_judge.sh: no BIRD mini-dev at $bird (give its folder as the first argument)" >&2
  exit 2
fi
[ -x "$fake_openai" ] || { echo "bird_judge.sh: $fake_openai is missing: build the tests (make build) or set FAKE_OPENAI" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "bird_judge.sh: the sqlite3 shell is needed (apt-get install sqlite3)" >&2; exit 2; }

work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# The question, read with SQLite's JSON functions (no other tool needed).
field() {
  sqlite3 -noheader -list :memory: \
    "SELECT json_extract(readfile('$bird/mini_dev_sqlite.json'), '\$[$index].$1')"
}
db_id=$(field db_id)
question=$(field question)
evidence=$(field evidence)
sql=$(field SQL)
[ -n "$db_id" ] || { echo "bird_judge.sh: no question $index in $bird/mini_dev_sqlite.json" >&2; exit 2; }

# 1. An empty database with the question's schema.
db="$work/$db_id.sqlite"
sqlite3 "$db" < "$bird/schemas/$db_id.sql"

# 2. The fake server, on a free port written to a file.
"$fake_openai" --port 0 --port-file "$work/port" > "$work/fake_openai.log" 2>&1 &
server=$!
tries=0
while [ ! -s "$work/port" ]; do
  tries=$((tries + 1))
  [ "$tries" -le 100 ] || { echo "bird_judge.sh: the fake server did not start" >&2; cat "$work/fake_openai.log" >&2; exit 1; }
  sleep 0.05
done
port=$(cat "$work/port")

# 3. The LLM judge, declared once.
cat > "$work/sqlmorph.toml" <<TOML
[judges.adherence]
plugin = "sql_adherence"
options = { base_url = "http://127.0.0.1:$port/v1", api_key_env = "" }
TOML

# 4. Both judges on the gold SQL.
echo "BIRD mini-dev question $index ($db_id): $question"
echo "evidence: $evidence"
echo "SQL: $sql"
echo
status=0
"$sqlmorph" --config "$work/sqlmorph.toml" judge --question "$question" --sql "$sql" --hints "$evidence" \
  --schema-from "$db" --judges adherence,sql_correctness "$@" > "$work/out.txt" 2>&1 || status=$?
sed "s|$work/||g" "$work/out.txt"
exit $status
