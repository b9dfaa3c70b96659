#!/usr/bin/env bash
# Where dlock's start-up time goes, next to flock(1).
#  1. hyperfine, in ROUNDS interleaved rounds: `--version` (no Redis) and `run NAME -- true`
#     (unix socket) for flock, dlock and any other dlock builds given as NAME=PATH arguments
#     (e.g. statically linked variants).
#  2. LD_DEBUG=statistics: dynamic-loader time and relocations, median of 31 runs.
#  3. strace -c: the syscalls of one `dlock run NAME -- true` (dlock alone, without -f).
#   bench/startup.sh        DLOCK=path bench/startup.sh static=/tmp/dlock-static/dlock
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-300}
ROUNDS=${ROUNDS:-10}
bench_build
bench_start_redis
builds=("dlock=$DLOCK" "$@")

version_cmds=(-n flock "flock --version")
run_cmds=(-n flock "flock $BENCH_TMP/x true")
for b in "${builds[@]}"; do
    version_cmds+=(-n "${b%%=*}" "${b#*=} --version")
    run_cmds+=(-n "${b%%=*}" "${b#*=} --redis unix://$REDIS_SOCK run bench-lock -- true")
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# ROUNDS short hyperfine runs, so that load drifting over time hits every command alike.
# Per command: median of the round medians, mean of the round means, overall min, user+sys.
compare() { # NAME hyperfine-args...
    local name=$1 round cmd
    shift
    for ((round = 1; round <= ROUNDS; round++)); do
        hyperfine -N --style none --warmup 5 --runs $((RUNS / ROUNDS)) \
            --export-csv "$BENCH_TMP/$name-$round.csv" "$@" >"$BENCH_TMP/hyperfine.log" 2>&1 ||
            die "hyperfine failed: $(cat "$BENCH_TMP/hyperfine.log")"
    done
    echo "== $name: $ROUNDS rounds x $((RUNS / ROUNDS)) runs (ms)"
    printf '%-12s %8s %8s %8s %10s\n' command median mean min user+sys
    awk -F, 'NR > 1 { print $1 }' "$BENCH_TMP/$name-1.csv" | while read -r cmd; do
        awk -F, -v c="$cmd" '$1 == c { print $4, $2, $7, $5 + $6 }' "$BENCH_TMP/$name"-*.csv |
            sort -n | awk -v c="$cmd" '{ med[NR] = $1; mean += $2; cpu += $4
                                         if (NR == 1 || $3 < min) min = $3 }
                END { printf "%-12s %8.2f %8.2f %8.2f %10.2f\n", c, med[int((NR + 1) / 2)] * 1000,
                             mean / NR * 1000, min * 1000, cpu / NR * 1000 }'
    done | tee "$RESULTS/startup-$name.txt"
}
compare version "${version_cmds[@]}"
compare run "${run_cmds[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== LD_DEBUG=statistics (median of 31 runs of --version; cycles)"
ld_stats() { # NAME BINARY: prints the median of each figure
    local col
    for _ in {1..31}; do
        LD_DEBUG=statistics "$2" --version 2>&1 >/dev/null |
            awk '/total startup time/ { t = $(NF-1) } /time needed for relocation/ { r = $(NF-2) }
                 /final number of relocations:/ { n = $NF } END { print t + 0, r + 0, n + 0 }'
    done >"$BENCH_TMP/ld.txt"
    printf '%-12s' "$1"
    for col in 1 2 3; do
        printf ' %14s' "$(cut -d' ' -f"$col" "$BENCH_TMP/ld.txt" | sort -n | sed -n 16p)"
    done
    echo
}
printf '%-12s %14s %14s %14s\n' binary loader relocation relocations
ld_stats flock flock
for b in "${builds[@]}"; do ld_stats "${b%%=*}" "${b#*=}"; done

if command -v strace >/dev/null; then
    echo "== strace -c $DLOCK run bench-lock -- true (dlock's own syscalls)"
    strace -c -o "$BENCH_TMP/strace.txt" "$DLOCK" --redis "unix://$REDIS_SOCK" run bench-lock -- true
    awk '$1 ~ /^[0-9]/ && $NF != "total"' "$BENCH_TMP/strace.txt" | sort -k4,4nr | head -12
    awk '$NF == "total" { print "total:", $4, "calls,", $5, "errors" }' "$BENCH_TMP/strace.txt"
fi
