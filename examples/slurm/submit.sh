#!/bin/bash
# Submits a sharded sqlmorph evaluation to Slurm: an array of N shard tasks, then the merge, which
# runs once every task succeeded (--dependency=afterok). Prints the two job ids.
#
#   examples/slurm/submit.sh N OUT_DIR EVAL-ARGUMENTS...
#
# e.g. examples/slurm/submit.sh 4 /shared/runs/spider-dev --benchmark spider \
#        --gold dev_gold.sql --pred dail-sql.sql --db-root database
# OUT_DIR must be on a filesystem every node sees. SQLMORPH (the executable) and SBATCH_* variables
# are passed through; extra sbatch options go in SBATCH_OPTIONS (e.g. "--partition=cpu --time=2:00:00").
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 N OUT_DIR EVAL-ARGUMENTS..." >&2
  exit 2
fi
shards="$1"
out="$2"
shift 2
case "$shards" in
  '' | *[!0-9]* | 0)
    echo "$0: N must be a positive number of shards, not '$shards'" >&2
    exit 2
    ;;
esac
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out/logs"
export SHARDS="$shards" OUT="$out"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --export=ALL --array="0-$((shards - 1))" \
  --output="$out/logs/shard-%a.log" "$here/eval-shard.sbatch" "$@")
array="${array%%;*}"
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --export=ALL --dependency="afterok:$array" \
  --output="$out/logs/merge.log" "$here/merge.sbatch")
merge="${merge%%;*}"
echo "shards: job $array (array 0-$((shards - 1))), merge: job $merge; results in $out/merged"
