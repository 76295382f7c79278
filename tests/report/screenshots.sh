#!/bin/bash
# make report-screenshots: a report of Spider dev (4 systems; the demo without ../shared) and a
# screenshot of each of its views.
#   screenshots.sh SQLMORPH_BINARY SOURCE_DIR BUILD_DIR OUT_DIR
set -euo pipefail
sqlmorph="$1"; source_dir="$2"; build_dir="$3"; out="$4"
work="$(mktemp -d /tmp/sqlmorph-screenshots.XXXXXX)"
trap 'rm -rf "$work"' EXIT
spider="$source_dir/../shared/benchmarks/spider-dev"
if [ -d "$spider" ]; then
  "$sqlmorph" --config "$source_dir/sqlmorph.toml" -q eval --benchmark spider --gold "$spider/dev_gold.sql" \
    --pred "$spider/predictions/dail-sql-gpt4.sql" --pred "$spider/predictions/c3-gpt35.sql" \
    --pred "$spider/predictions/resdsql-3b.sql" --pred "$spider/predictions/din-sql-gpt4.csv" \
    --db-root "$spider/database" --techniques execution_accuracy,exact_column_and_partial_cell --out "$work/run" > /dev/null
else
  "$sqlmorph" --config "$source_dir/sqlmorph.toml" -q eval --cases "$source_dir/examples/demo/cases.jsonl" \
    --db-root "$build_dir/examples/demo" --timeout 2 --out "$work/run" > /dev/null
fi
"$sqlmorph" report "$work/run" -o "$work/report.html"
mkdir -p "$out"
node "$source_dir/tests/report/screenshots.mjs" "$work/report.html" "$out"
