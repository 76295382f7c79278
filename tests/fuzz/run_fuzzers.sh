#!/usr/bin/env bash
# Runs every fuzz target of a `fuzz` build for a bounded time, from seeds built now (make_seeds:
# the project's inputs and ../shared/benchmarks) plus the corpus earlier runs grew. Prints, per
# target, the executions run and what was found; exits 1 when any target found a crash (the input
# is kept as build-fuzz/fuzz/findings/<target>-crash-*: make it a regression test in the suite).
#
#   tests/fuzz/run_fuzzers.sh [SECONDS_PER_TARGET] [TARGET...]     (default 60 s, every target)
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
shift || true
build="build-fuzz"
bin="$build/fuzz"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(cases_reader spider_files bird_files toml_config sql_text spider_hardness spider_exact_match value
    gold_cache_entry run_files lua_techniques)
fi
for t in "${targets[@]}"; do
  [ -x "$bin/fuzz_$t" ] || { echo "run_fuzzers: $bin/fuzz_$t is not built (make fuzz builds it)" >&2; exit 2; }
done

# Scratch files of the targets (and whatever a fuzzed script writes) go under build-fuzz, never
# into the checkout.
root="$PWD"
export TMPDIR="$root/$bin/tmp"
rm -rf "$TMPDIR"
mkdir -p "$TMPDIR"

shared="../shared"
[ -d "$shared/benchmarks" ] || shared="-"
"$bin/make_seeds" . "$shared" "$bin/seeds" || exit 2
mkdir -p "$bin/findings"

# Sanitizer reports are findings: stop at the first, with a stack.
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

failed=0
printf '%-16s %12s %10s  %s\n' target executions exec/s result
for t in "${targets[@]}"; do
  corpus="$bin/corpus/$t"
  mkdir -p "$corpus"
  log="$bin/findings/$t.log"
  (cd "$TMPDIR" && "$root/$bin/fuzz_$t" "$root/$corpus" "$root/$bin/seeds/$t" -max_total_time="$seconds" \
    -timeout=20 -rss_limit_mb=2560 -max_len=16384 -print_final_stats=1 \
    -artifact_prefix="$root/$bin/findings/$t-") >"$log" 2>&1
  rc=$?
  runs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  speed=$(grep -ao 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  if [ "$rc" -eq 0 ]; then
    result="nothing found"
  else
    failed=1
    artifact=$(grep -ao "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //')
    result="FOUND (exit $rc): ${artifact#"$root/"}"
    [ -n "$artifact" ] || result="FOUND (exit $rc): see $log"
  fi
  printf '%-16s %12s %10s  %s\n' "$t" "${runs:-?}" "${speed:-?}" "$result"
done
if [ "$failed" -ne 0 ]; then
  echo "run_fuzzers: a target found a problem; the logs are in $bin/findings/" >&2
fi
exit "$failed"
