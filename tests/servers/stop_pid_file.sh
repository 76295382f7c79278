# Sourced by the test servers' scripts (tests/servers/*.sh).
#
# stop_pid_file FILE: stops the process whose pid FILE holds: SIGTERM, up to 10 s for it to end,
# then SIGKILL. Nothing to do when FILE, or its process, is gone.
stop_pid_file() {
  [ -f "$1" ] || return 0
  stopping="$(cat "$1" 2>/dev/null || true)"
  [ -n "$stopping" ] || return 0
  kill "$stopping" 2>/dev/null || return 0
  i=0
  while kill -0 "$stopping" 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  kill -9 "$stopping" 2>/dev/null || true
}
