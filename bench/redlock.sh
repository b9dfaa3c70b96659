#!/usr/bin/env bash
# Redlock next to a single server: five private redis-servers; for N = 1, 3 and 5 members,
#  - the uncontended `dlock run k -- true` (hyperfine, interleaved in one run), and
#  - the gap from one job's end to the next one's start while K+1 workers loop `dlock run -w 30s
#    handover -- JOB` (as bench/handover.sh). On one server the queued waiter is woken and runs
#    next; under Redlock waiters do not queue (they retry after a random 50-250 ms), so the
#    worker that just finished usually runs again first, and the gap is its start-up.
#   bench/redlock.sh        RUNS=200 HANDOVERS=100 WAITERS=1 HOLD=0.05 DLOCK=path
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-200}
HANDOVERS=${HANDOVERS:-100}
WAITERS=${WAITERS:-1}
HOLD=${HOLD:-0.05}

bench_build
bench_start_redis # member 1; members 2-5 below, on unix sockets in the same temp dir
for i in 2 3 4 5; do
    redis-server --port 0 --unixsocket "$BENCH_TMP/m$i.sock" --unixsocketperm 700 --save '' \
        --appendonly no --dir "$BENCH_TMP" --logfile "$BENCH_TMP/m$i.log" &
    BENCH_PIDS+=($!)
done
for i in 2 3 4 5; do
    for _ in {1..50}; do
        redis-cli -s "$BENCH_TMP/m$i.sock" ping >/dev/null 2>&1 && break
        sleep 0.1
    done
done

# members N: the --redis options of the first N members.
members() {
    local out="--redis unix://$REDIS_SOCK" i
    for ((i = 2; i <= $1; i++)); do out+=" --redis unix://$BENCH_TMP/m$i.sock"; done
    echo "$out"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N --warmup 20 --runs "$RUNS" --export-json "$RESULTS/redlock-startup.json" \
    "$DLOCK $(members 1) run k1 -- true" \
    "$DLOCK $(members 3) run k3 -- true" \
    "$DLOCK $(members 5) run k5 -- true" | tee "$RESULTS/redlock-startup.txt"

# shellcheck disable=SC2016 # expanded by the job's bash; $0 is the log file
job='echo "s $EPOCHREALTIME" >>"$0"; sleep '"$HOLD"'; echo "e $EPOCHREALTIME" >>"$0"'
echo "hold ${HOLD}s, $WAITERS waiter(s); gaps in ms: n p50 p99 max mean"
for n in 1 3 5; do
    log=$BENCH_TMP/handover-$n.log
    jobs=$((HANDOVERS + 1)) pids=()
    # shellcheck disable=SC2046 # members are separate words
    for ((w = 0; w <= WAITERS; w++)); do
        (for ((j = w; j < jobs; j += WAITERS + 1)); do
            "$DLOCK" $(members "$n") run -w 30s "handover$n" -- bash -c "$job" "$log"
        done) &
        pids+=($!)
    done
    wait "${pids[@]}"
    printf 'N=%d  %s\n' "$n" "$(gaps "$log")" | tee -a "$RESULTS/redlock-handover.txt"
done
