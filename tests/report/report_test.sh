#!/bin/bash
# The HTML report in a real browser (Debian's headless chromium, driven by puppeteer-core from the
# npm registry, installed by `make deps` into tests/report/node_modules):
#   1. the demo run's report;
#   2. a 4-system Spider dev run's report (needs ../shared).
# Each must render every view without a console error, and the explorer's filters must show what
# report_test.mjs computes from the run's own files.
#
#   report_test.sh SQLMORPH_BINARY SOURCE_DIR BUILD_DIR
set -euo pipefail
sqlmorph="$1"
source_dir="$2"
build_dir="$3"
here="$source_dir/tests/report"
if [ ! -d "$here/node_modules/puppeteer-core" ]; then
  echo "FAIL: puppeteer-core is not installed in $here/node_modules (make deps installs it)" >&2
  exit 1
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "FAIL: /usr/bin/chromium is missing (make deps installs Debian's chromium)" >&2
  exit 1
fi
work="$(mktemp -d /tmp/sqlmorph-report-test.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# 1. The demo.
"$sqlmorph" --config "$source_dir/sqlmorph.toml" -q eval --cases "$source_dir/examples/demo/cases.jsonl" \
  --db-root "$build_dir/examples/demo" --techniques execution_accuracy,exact_column_and_partial_cell,malloy \
  --timeout 2 --out "$work/demo"
"$sqlmorph" report "$work/demo" -o "$work/demo.html"
node "$here/report_test.mjs" "$work/demo.html" "$work/demo"

# 2. Spider dev, four systems.
shared="$source_dir/../shared"
. "$source_dir/tests/support/require_shared.sh"
require_shared "$shared/benchmarks/spider-dev" "Spider dev"
spider="$shared/benchmarks/spider-dev"
"$sqlmorph" --config "$source_dir/sqlmorph.toml" -q eval --benchmark spider --gold "$spider/dev_gold.sql" \
  --pred "$spider/predictions/dail-sql-gpt4.sql" --pred "$spider/predictions/c3-gpt35.sql" \
  --pred "$spider/predictions/resdsql-3b.sql" --pred "$spider/predictions/din-sql-gpt4.csv" \
  --db-root "$spider/database" --techniques execution_accuracy,exact_column_and_partial_cell \
  --out "$work/spider" > /dev/null
"$sqlmorph" report "$work/spider" -o "$work/spider.html"
node "$here/report_test.mjs" "$work/spider.html" "$work/spider"
