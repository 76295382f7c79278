#!/bin/sh
# A throwaway one-node Slurm cluster for the tests: slurmctld and slurmd from Debian's packages
# (slurmctld slurmd slurm-client), every state, spool, log and pid file in a temporary folder, ports
# of its own, no munge (auth/none), stopped by pid.
#
#   tests/servers/slurm.sh start STATE_FILE   start a cluster; write its settings to STATE_FILE
#   tests/servers/slurm.sh stop STATE_FILE    stop it (by pid) and delete its folder
#
# STATE_FILE is a shell fragment: SLURM_DIR (the folder) and SLURM_CONF (its slurm.conf; export it
# before sbatch/squeue/scancel). Slurm's daemons run as root here (SlurmUser=root), as on these
# test machines; without root the cluster cannot start and the script says so. Exits non-zero
# with a message naming what is missing when the cluster cannot start.
set -eu

command="${1:-}"
state="${2:-}"
if [ -z "$command" ] || [ -z "$state" ]; then
  echo "usage: $0 start|stop STATE_FILE" >&2
  exit 2
fi

# A free TCP port on the loopback interface, different from $1 (if given).
free_port() {
  python3 -c 'import socket,sys
while True:
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close()
    if str(p) not in sys.argv[1:]: print(p); break' "$@"
}

. "$(dirname "$0")/stop_pid_file.sh"

case "$command" in
  start)
    for program in slurmctld slurmd sbatch sinfo; do
      if ! command -v "$program" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$program" ]; then
        echo "slurm test cluster: $program not found (install the Debian packages slurmctld slurmd slurm-client; make test does)" >&2
        exit 1
      fi
    done
    if [ "$(id -u)" != "0" ]; then
      echo "slurm test cluster: slurmd must run as root (SlurmUser=root); run the suite as root" >&2
      exit 1
    fi
    if [ -f "$state" ]; then
      "$0" stop "$state" || true  # a cluster left by an interrupted run
    fi
    dir="$(mktemp -d /tmp/sqlmorph-slurm.XXXXXX)"
    mkdir -p "$dir/state" "$dir/spool"
    node="$(hostname -s)"
    ctld_port="$(free_port)"
    slurmd_port="$(free_port "$ctld_port")"
    cat >"$dir/slurm.conf" <<EOF
ClusterName=sqlmorph-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
MinJobAge=600
SchedulerType=sched/backfill
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
    {
      echo "SLURM_DIR=$dir"
      echo "SLURM_CONF=$dir/slurm.conf"
    } >"$state"
    if ! slurmctld -c -f "$dir/slurm.conf" >"$dir/slurmctld.out" 2>&1; then
      echo "slurm test cluster: slurmctld did not start; its log:" >&2
      cat "$dir/slurmctld.out" "$dir/slurmctld.log" >&2 2>/dev/null || true
      "$0" stop "$state" || true
      exit 1
    fi
    if ! slurmd -f "$dir/slurm.conf" >"$dir/slurmd.out" 2>&1; then
      echo "slurm test cluster: slurmd did not start; its log:" >&2
      cat "$dir/slurmd.out" "$dir/slurmd.log" >&2 2>/dev/null || true
      "$0" stop "$state" || true
      exit 1
    fi
    # Ready when the node is idle (up to 60 s).
    i=0
    while :; do
      node_state="$(SLURM_CONF="$dir/slurm.conf" sinfo -h -n "$node" -o %T 2>/dev/null || true)"
      case "$node_state" in
        idle*) break ;;
      esac
      i=$((i + 1))
      if [ $i -ge 120 ]; then
        echo "slurm test cluster: node $node not idle after 60 s (state '$node_state'); logs:" >&2
        tail -n 30 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 2>/dev/null || true
        "$0" stop "$state" || true
        exit 1
      fi
      sleep 0.5
    done
    echo "slurm test cluster: running in $dir (node $node, slurmctld port $ctld_port, slurmd port $slurmd_port)"
    ;;
  stop)
    [ -f "$state" ] || exit 0
    # shellcheck disable=SC1090
    . "$state"
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
      SLURM_CONF="$SLURM_CONF" scancel --quiet --user=root 2>/dev/null || true
    fi
    stop_pid_file "$SLURM_DIR/slurmd.pid"
    stop_pid_file "$SLURM_DIR/slurmctld.pid"
    case "$SLURM_DIR" in
      /tmp/sqlmorph-slurm.*) rm -rf "$SLURM_DIR" ;;
    esac
    rm -f "$state"
    ;;
  *)
    echo "usage: $0 start|stop STATE_FILE" >&2
    exit 2
    ;;
esac
