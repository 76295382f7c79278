#!/bin/sh
# `sqlmorph explain` on every example of two runs — the demo as `make run` evaluates it (its
# deliberate failures: errors, a timeout, a missing database) and DAIL-SQL on Spider dev (needs
# ../shared) — each explained without a crash and showing what examples.jsonl holds
# (explain_run.py checks each answer).
#
#   tests/explain/explain_every_example.sh SQLMORPH SOURCE_DIR BUILD_DIR
set -eu
sqlmorph="$1"
source_dir="$2"
build_dir="$3"
here="$source_dir/tests/explain"
work="$(mktemp -d /tmp/sqlmorph-explain-test.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# 1. The demo, with the Makefile's `run` command.
"$sqlmorph" --config "$source_dir/sqlmorph.toml" -q eval --cases "$source_dir/examples/demo/cases.jsonl" \
  --db-root "$build_dir/examples/demo" --penalize-extra-pred-cols both --timeout 2 --max-rows 10000 \
  --judges sql_correctness --overwrite --out "$work/demo-results" > /dev/null
python3 "$here/explain_run.py" "$sqlmorph" "$work/demo-results" --min-failed 8

# 2. DAIL-SQL on Spider dev (dail-sql-gpt4:96, a prediction that fails, among its examples).
spider="$source_dir/../shared/benchmarks/spider-dev"
. "$source_dir/tests/support/require_shared.sh"
require_shared "$spider/dev_gold.sql" "Spider dev"
"$sqlmorph" --config "$source_dir/sqlmorph.toml" -q eval --benchmark spider --gold "$spider/dev_gold.sql" \
  --pred "$spider/predictions/dail-sql-gpt4.sql" --db-root "$spider/database" \
  --techniques execution_accuracy --progress none --out "$work/spider" > /dev/null
python3 "$here/explain_run.py" "$sqlmorph" "$work/spider" --min-failed 1 --failed-id dail-sql-gpt4:96
