#!/usr/bin/env bash
# Wall time of `dlock run NAME -- true` (unix socket and TCP) against `flock FILE true`,
# in one hyperfine run. Target: dlock mean <= 1.15 x flock mean.
#   bench/run-vs-flock.sh            # builds build-bench/dlock (Release)
#   DLOCK=path RUNS=1000 bench/run-vs-flock.sh
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-300}
WARMUP=${WARMUP:-30}

bench_build
bench_start_redis
out=$RESULTS/run-vs-flock
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

hyperfine -N --style basic --warmup "$WARMUP" --runs "$RUNS" \
    --export-json "$out.json" --export-markdown "$out.md" --export-csv "$out.csv" \
    -n flock "flock $BENCH_TMP/x true" \
    -n dlock-unix "$DLOCK --redis unix://$REDIS_SOCK run bench-lock -- true" \
    -n dlock-tcp "$DLOCK --redis redis://127.0.0.1:$REDIS_PORT run bench-lock -- true"

echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "results: $out.{json,md,csv}"
# CSV columns: command,mean,stddev,median,user,system,min,max (seconds)
awk -F, 'NR == 2 { fm = $2; fmed = $4; fmin = $7 }
         NR > 2  { printf "%-10s / flock: mean %.2fx (%.2f ms vs %.2f ms), median %.2fx, min %.2fx -> %s\n",
                          $1, $2 / fm, $2 * 1000, fm * 1000, $4 / fmed, $7 / fmin,
                          ($2 / fm <= 1.15 ? "target met" : "target NOT met (<= 1.15x)") }' \
    "$out.csv"
