#!/usr/bin/env bash
# Where the wall time of `dlock run NAME -- true` goes, next to `flock FILE true`: RUNS
# alternating pairs (bench/pairs.c, output read through a pipe) recorded with perf's sched and
# syscall tracepoints system-wide, then cut into phases per run (exec, connect, acquire round
# trip, spawn, the command, release round trip, guardian exit, exit) by
# bench/phases/dlock_phases.py. Needs perf (tracepoints readable: root, or
# kernel.perf_event_paranoid <= -1) and python3. Prints p25/median/p75 of each phase.
#   bench/phases.sh                  DLOCK=path RUNS=100 TRANSPORT=tcp bench/phases.sh
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-60}
TRANSPORT=${TRANSPORT:-unix}
command -v perf >/dev/null || die "needs perf"
bench_build
bench_start_redis
cc -O2 -o "$BENCH_TMP/pairs" "$BENCH_ROOT/bench/pairs.c"
url="unix://$REDIS_SOCK"
[[ $TRANSPORT == tcp ]] && url="redis://127.0.0.1:$REDIS_PORT"
events=()
for e in sched:sched_process_exec sched:sched_process_exit sched:sched_process_fork \
    syscalls:sys_enter_connect syscalls:sys_enter_sendto syscalls:sys_exit_recvfrom \
    syscalls:sys_enter_clone syscalls:sys_enter_vfork syscalls:sys_enter_exit_group; do
    events+=(-e "$e")
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
perf record -a -q -o "$BENCH_TMP/perf.data" "${events[@]}" -- \
    "$BENCH_TMP/pairs" pipe "$RUNS" 3 ::: flock "$BENCH_TMP/x" true ::: \
    "$DLOCK" --redis "$url" run bench-lock -- true >"$BENCH_TMP/pairs.tsv"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
perf script -i "$BENCH_TMP/perf.data" 2>/dev/null |
    python3 "$BENCH_ROOT/bench/phases/dlock_phases.py" "$DLOCK" | tee "$RESULTS/phases-$TRANSPORT.txt"
