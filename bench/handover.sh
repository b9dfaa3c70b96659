#!/usr/bin/env bash
# Handover latency: K+1 workers loop `dlock run -w 30s handover -- JOB`, so one holds while K
# queue. JOB logs "s $EPOCHREALTIME", sleeps HOLD seconds, logs "e $EPOCHREALTIME"; a gap is
# one job's "e" to the next job's "s". The same loop under `flock -w 30` is the baseline: its
# gap is almost only JOB's own cost (bash exit and start), which dlock's gap includes too.
# Also: Redis commands per handover, from INFO commandstats deltas.
#   bench/handover.sh       WAITERS="1 8" HANDOVERS=200 HOLD=0.1 DLOCK=path bench/handover.sh
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

WAITERS=${WAITERS:-1 8}
HANDOVERS=${HANDOVERS:-200}
HOLD=${HOLD:-0.1}

bench_build
bench_start_redis
# shellcheck disable=SC2016 # expanded by the job's bash; $0 is the log file
job='echo "s $EPOCHREALTIME" >>"$0"; sleep '"$HOLD"'; echo "e $EPOCHREALTIME" >>"$0"'

# measure TOOL K: K+1 workers, HANDOVERS+1 jobs in all; prints one result line.
measure() {
    local tool=$1 k=$2 log=$BENCH_TMP/$1-$2.log
    local -a lock
    case $tool in
    flock) lock=(flock -w 30 "$BENCH_TMP/handover") ;;
    dlock) lock=("$DLOCK" --redis "unix://$REDIS_SOCK" run -w 30s handover --) ;;
    esac
    local jobs=$((HANDOVERS + 1)) before pids=() w
    before=$(redis_commandstats)
    for ((w = 0; w <= k; w++)); do
        # Worker w runs jobs w, w+k+1, w+2(k+1), ... below $jobs.
        (for ((j = w; j < jobs; j += k + 1)); do "${lock[@]}" bash -c "$job" "$log"; done) &
        pids+=($!)
    done
    BENCH_PIDS=("${pids[@]}")
    wait "${pids[@]}"
    BENCH_PIDS=()
    printf '%-5s K=%d  %s  ' "$tool" "$k" "$(gaps "$log")"
    # Redis calls per handover: those dlock sends (round trips) and those its scripts make.
    join <(echo "$before" | LC_ALL=C sort) <(redis_commandstats | LC_ALL=C sort) \
        -a 2 -e 0 -o 0,1.2,2.2 | awk -v h="$HANDOVERS" '
        $1 == "info" || $3 == $2 { next }
        $1 ~ /^(evalsha|eval|blpop|auth|select|hello|ping)$/ {
            sent += $3 - $2; detail = detail sprintf(" %s=%.2f", $1, ($3 - $2) / h); next }
        { in_scripts += $3 - $2 }
        END { printf "sent=%.2f%s in-scripts=%.1f\n", sent / h, detail, in_scripts / h }'
}

# Load the scripts into Redis first, so NOSCRIPT retries do not count.
"$DLOCK" --redis "unix://$REDIS_SOCK" run handover -- true
"$DLOCK" --redis "unix://$REDIS_SOCK" run -w 1s handover -- true

echo "hold ${HOLD}s; gaps in ms: n p50 p99 max mean; Redis calls per handover"
for k in $WAITERS; do
    for tool in flock dlock; do
        measure "$tool" "$k" | tee -a "$RESULTS/handover.txt"
    done
done
