#!/bin/bash
# Sharded evaluation on a real one-node Slurm cluster (the `slurm` CTest fixture,
# tests/servers/slurm.sh), through examples/slurm:
#   1. Spider dev (two systems) in 4 array tasks + the merge job (afterok): the merged output equals a
#      single-machine run of the same command (results.jsonl timings aside, summary.json wall time
#      aside, run.json fingerprint).
#   2. Failure injection: one array task is cancelled (scancel) in the middle of its shard; the merge
#      refuses, listing that shard's missing units; the task resubmitted (it resumes) completes it,
#      and the merge then equals the single-machine run.
#
#   slurm_shards.sh STATE_FILE SQLMORPH_BINARY SOURCE_DIR
set -euo pipefail

state="$1"
sqlmorph="$2"
source_dir="$3"
shared="$source_dir/../shared"
. "$source_dir/tests/support/require_shared.sh"
require_shared "$shared/benchmarks/spider-dev" "Spider dev"
# shellcheck disable=SC1090
. "$state"
export SLURM_CONF
export SQLMORPH="$sqlmorph"
spider="$(cd "$shared/benchmarks/spider-dev" && pwd)"
work="$(mktemp -d /tmp/sqlmorph-slurm-test.XXXXXX)"
jobs_submitted=()
cleanup() {
  for j in "${jobs_submitted[@]}"; do scancel "$j" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  for f in "$work"/*/logs/*.log; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }
  done
  exit 1
}

# The state of a job (or array task "ID_K"): PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ...
job_state() {
  scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1
}

# Waits until no task of job $1 is pending or running (at most $2 seconds).
wait_job() {
  local job="$1" limit="$2" waited=0
  while squeue -h -j "$job" 2>/dev/null | grep -q .; do
    if squeue -h -j "$job" -o %r 2>/dev/null | grep -q DependencyNeverSatisfied; then
      fail "job $job can never start: a job it depends on failed"
    fi
    sleep 1
    waited=$((waited + 1))
    [ $waited -lt "$limit" ] || fail "job $job still queued or running after $limit s: $(squeue -h -j "$job")"
  done
}

# Whether two run folders hold the same run (timings aside).
same_run() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = sys.argv[1], sys.argv[2]
def records(d):
    out = []
    for line in open(f"{d}/results.jsonl", encoding="utf-8"):
        r = json.loads(line)
        r.pop("gold_ms", None)
        r.pop("pred_ms", None)
        r.pop("technique_ms", None)
        out.append(r)
    return out
ra, rb = records(a), records(b)
if ra != rb:
    sys.exit(f"results.jsonl differ: {len(ra)} vs {len(rb)} records")
sa, sb = (json.load(open(f"{d}/summary.json", encoding="utf-8")) for d in (a, b))
sa.pop("wall_seconds"); sb.pop("wall_seconds")
if sa != sb:
    sys.exit("summary.json differ")
fa, fb = (json.load(open(f"{d}/run.json", encoding="utf-8"))["fingerprint"] for d in (a, b))
if fa != fb:
    sys.exit(f"run.json fingerprints differ: {fa} vs {fb}")
print(f"same run: {len(ra)} records")
PY
}

eval_args=(--benchmark spider --gold "$spider/dev_gold.sql" --db-root "$spider/database"
  --pred "$spider/predictions/dail-sql-gpt4.sql" --pred "$spider/predictions/c3-gpt35.sql"
  --techniques execution_accuracy,exact_column_and_partial_cell)

echo "== 1. Spider dev in 4 shards on Slurm"
"$sqlmorph" -q eval "${eval_args[@]}" --out "$work/single" --progress none >/dev/null
cd "$work"
submitted=$("$source_dir/examples/slurm/submit.sh" 4 "$work/run" "${eval_args[@]}")
echo "$submitted"
array=$(echo "$submitted" | sed -n 's/^shards: job \([0-9]*\).*/\1/p')
merge=$(echo "$submitted" | sed -n 's/.*merge: job \([0-9]*\).*/\1/p')
[ -n "$array" ] && [ -n "$merge" ] || fail "submit.sh printed no job ids"
jobs_submitted+=("$array" "$merge")
wait_job "$array" 300
wait_job "$merge" 120
[ "$(job_state "$merge")" = "COMPLETED" ] || fail "merge job $merge ended $(job_state "$merge")"
same_run "$work/single" "$work/run/merged" || fail "the merged Slurm run differs from the single-machine run"

echo "== 2. a task cancelled mid-run, the merge refuses, the task resubmitted, the merge succeeds"
# Slow predictions (the gold answer behind ~0.1 s of work each), so a shard runs for seconds.
head -n 160 "$spider/dev_gold.sql" >"$work/gold160.sql"
python3 - "$work/gold160.sql" "$work/slow.sql" <<'PY'
import sys
with open(sys.argv[1], encoding="utf-8") as f, open(sys.argv[2], "w", encoding="utf-8") as out:
    for line in f:
        sql = line.rstrip("\n").split("\t")[0]
        out.write("SELECT * FROM (" + sql + ") WHERE (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
                  "SELECT x + 1 FROM c LIMIT 400000) SELECT count(*) FROM c) > 0\n")
PY
slow_args=(--benchmark spider --gold "$work/gold160.sql" --db-root "$spider/database"
  --pred "$work/slow.sql" --techniques execution_accuracy)
"$sqlmorph" -q eval "${slow_args[@]}" --out "$work/slow-single" --progress none >/dev/null
mkdir -p "$work/slow/logs"
array=$(SHARDS=4 OUT="$work/slow" sbatch --parsable --export=ALL --array=0-3 \
  --output="$work/slow/logs/shard-%a.log" "$source_dir/examples/slurm/eval-shard.sbatch" "${slow_args[@]}")
array="${array%%;*}"
jobs_submitted+=("$array")
# Cancel task 1 once it has written its first unit (so surely in the middle of its shard).
waited=0
until [ -s "$work/slow/shard-1/results.jsonl" ]; do
  sleep 0.05
  waited=$((waited + 1))
  [ $waited -lt 6000 ] || fail "task 1 wrote nothing in 300 s"
done
scancel "${array}_1"
wait_job "$array" 300
state_1="$(job_state "${array}_1")"
[ "$state_1" = "CANCELLED" ] || fail "task 1 ended $state_1, not CANCELLED (the cancel came too late?)"
set +e
"$sqlmorph" -q merge "$work"/slow/shard-{0,1,2,3} --out "$work/slow/merged" 2>"$work/merge.err"
code=$?
set -e
cat "$work/merge.err"
[ $code -eq 2 ] || fail "merge with a cancelled shard exited $code, not 2"
grep -q "(shard 1/4)" "$work/merge.err" || fail "the refused merge does not list shard 1's units"
grep -q "units missing" "$work/merge.err" || fail "the refused merge does not say units are missing"
if grep -q "(shard [023]/4)" "$work/merge.err"; then fail "the refused merge lists units of complete shards"; fi
[ ! -e "$work/slow/merged/results.jsonl" ] || fail "a refused merge wrote results.jsonl"
# Resubmit the cancelled task (eval-shard.sbatch resumes), then merge.
again=$(SHARDS=4 OUT="$work/slow" sbatch --parsable --export=ALL --array=1 \
  --output="$work/slow/logs/shard-1-again.log" "$source_dir/examples/slurm/eval-shard.sbatch" "${slow_args[@]}")
again="${again%%;*}"
jobs_submitted+=("$again")
wait_job "$again" 300
[ "$(job_state "${again}_1")" = "COMPLETED" ] || fail "resubmitted task ended $(job_state "${again}_1")"
grep -q "resum" "$work/slow/logs/shard-1-again.log" || true
"$sqlmorph" -q merge "$work"/slow/shard-{0,1,2,3} --out "$work/slow/merged" >/dev/null ||
  fail "merge after the resubmitted task failed"
python3 -c "import json,sys; s=json.load(open(sys.argv[1])); sys.exit(0 if s['statistics']['resumed_units'] > 0 else 'the resubmitted task did not resume')" \
  "$work/slow/shard-1/run.json" || fail "the resubmitted task started over instead of resuming"
same_run "$work/slow-single" "$work/slow/merged" || fail "the repaired merge differs from the single-machine run"
echo "PASS"
