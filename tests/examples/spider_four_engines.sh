#!/bin/sh
# examples/engines/spider_on_four_engines.sh end to end: Spider dev copied into PostgreSQL, MariaDB
# (servers of its own) and DuckDB files, and DAIL-SQL's predictions evaluated on the four engines
# in one run; how many queries ran on each engine is the same every time.
#
#   tests/examples/spider_four_engines.sh SOURCE_DIR BUILD_DIR
set -eu
source_dir="$1"
build_dir="$2"
spider="$source_dir/../shared/benchmarks/spider-dev"
. "$source_dir/tests/support/require_shared.sh"
require_shared "$spider/dev_gold.sql" "Spider dev"
out="$(BUILD_DIR="$build_dir" "$source_dir/examples/engines/spider_on_four_engines.sh")"
echo "$out"
for line in "sqlite  db_missing 62, ok 958, pred_error 14" \
            "pg      db_missing 62, gold_error 373, ok 541, pred_error 58" \
            "maria   db_missing 62, gold_error 6, ok 943, pred_error 23" \
            "duck    db_missing 62, gold_error 345, ok 563, pred_error 64" \
            "dail-sql-gpt4@sqlite" "dail-sql-gpt4@duck"; do
  if ! printf '%s\n' "$out" | grep -qF "$line"; then
    echo "FAIL: expected a line with '$line'" >&2
    exit 1
  fi
done
echo "DAIL-SQL ran on the four engines"
