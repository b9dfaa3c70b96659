#!/usr/bin/env bash
# A fleet's cron at the same second: N processes `dlock run -w 120s herd -- JOB` started at once
# on one name around a short JOB (default `sleep 0.01`), against a private redis-server. Prints
# per N: jobs that ran, wall time, Redis round trips per job (the calls dlock sends: EVALSHA,
# BLPOP, ... from INFO commandstats after CONFIG RESETSTAT, divided by the jobs) and the
# commands run inside the scripts per job (every other call), with the top ones.
# MAXCLIENTS caps the server's connections (default 10000): with fewer slots than processes,
# the exit statuses other than 0 are counted too (issue 34: none expected).
#   bench/herd.sh       HERD="100 400 1000" JOB='sleep 0.01' DLOCK=path TRANSPORT=unix|tcp
#   MAXCLIENTS=20 HERD=60 bench/herd.sh
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

HERD=${HERD:-100 400 1000}
JOB=${JOB:-sleep 0.01}
TRANSPORT=${TRANSPORT:-unix}

bench_build
bench_start_redis
case $TRANSPORT in
unix) url=unix://$REDIS_SOCK ;;
tcp) url=redis://127.0.0.1:$REDIS_PORT ;;
*) die "TRANSPORT must be unix or tcp" ;;
esac
MAXCLIENTS=${MAXCLIENTS:-10000}
redis-cli -s "$REDIS_SOCK" config set maxclients "$MAXCLIENTS" >/dev/null

# Calls dlock itself sends (one round trip each); the rest run inside scripts.
top_level='^(evalsha|eval|blpop|blmove|lpop|script|auth|select|hello|ping|client|wait)$'

# herd N: prints one result line.
herd() {
    local n=$1 i start end ok status failed="" pids=()
    # Load the scripts first, so NOSCRIPT retries do not count.
    "$DLOCK" --redis "$url" run herd -- true
    "$DLOCK" --redis "$url" run -w 1s herd -- true
    redis-cli -s "$REDIS_SOCK" config resetstat >/dev/null
    start=$(date +%s.%N)
    for ((i = 0; i < n; i++)); do
        "$DLOCK" --redis "$url" run -w 120s herd -- sh -c "$JOB" >/dev/null 2>&1 &
        pids+=($!)
    done
    BENCH_PIDS=("${pids[@]}")
    ok=0
    for i in "${pids[@]}"; do
        status=0
        wait "$i" || status=$?
        if [ "$status" = 0 ]; then ok=$((ok + 1)); else failed="$failed $status"; fi
    done
    [ -z "$failed" ] || echo "N=$n exits other than 0:$failed" >&2
    end=$(date +%s.%N)
    BENCH_PIDS=()
    redis_commandstats | awk -v n="$n" -v ok="$ok" -v wall="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" \
        -v top="$top_level" '
        $1 == "info" || $1 == "config" { next }
        $1 ~ top { sent += $2; detail = detail sprintf(" %s=%.2f", $1, $2 / ok); next }
        { inner += $2; cmd[$1] = $2 }
        END {
            printf "N=%-5d jobs=%d wall=%.2fs round-trips/job=%.2f (%s ) in-scripts/job=%.1f (",
                   n, ok, wall, sent / ok, detail, inner / ok
            # The five commands scripts run most.
            for (k = 0; k < 5; k++) {
                best = ""; for (c in cmd) if (best == "" || cmd[c] > cmd[best]) best = c
                if (best == "") break
                printf "%s%s=%.1f", k ? " " : "", best, cmd[best] / ok; delete cmd[best]
            }
            print ")"
        }'
}

echo "load: $(cat /proc/loadavg)"
echo "herd of 'dlock run -w 120s herd -- $JOB' over $TRANSPORT; maxclients $MAXCLIENTS; ulimit -n $(ulimit -n)"
for n in $HERD; do
    herd "$n" | tee -a "$RESULTS/herd.txt"
done
echo "load: $(cat /proc/loadavg)"
