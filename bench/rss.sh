#!/usr/bin/env bash
# Memory and CPU of dlock itself while it holds a lock. Target: <= 4 MB RSS.
#  1. VmRSS/VmHWM (and the anon/file split) of the dlock process while `sleep 3` runs under it
#     with --ttl 3s: once before the first renewal (0.5 s in) and once after it (2 s in), since
#     the watchdog thread and its connection may only appear with the first renewal.
#  2. /usr/bin/time -v max RSS of `dlock run x -- true` next to `flock x true` (that figure is
#     the max over the process and the children it waited for).
#  3. CPU (utime+stime, and per-thread schedstat ns) spent by dlock holding `--ttl 3s` over a
#     `sleep 10`: only lease renewals (one every TTL/3) should cost anything.
#   bench/rss.sh        or        DLOCK=path bench/rss.sh
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

bench_build
bench_start_redis
url=unix://$REDIS_SOCK

# Starts `dlock run ARGS...` in the background; sets DL_PID once the command runs under it.
start_holder() {
    "$DLOCK" --redis "$url" run "$@" &
    DL_PID=$!
    BENCH_PIDS+=("$DL_PID")
    for _ in {1..100}; do
        pgrep -P "$DL_PID" >/dev/null && return 0
        sleep 0.02
    done
    die "the command never started under dlock"
}

# Sum of on-CPU ns over all threads of a process (first field of each task's schedstat).
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { print s }'; }
# utime + stime of a process (all threads) in clock ticks; comm is skipped by cutting at ')'.
cpu_ticks() { sed 's/.*) //' /proc/"$1"/stat | awk '{ print $12 + $13 }'; }

memory() {
    grep -E '^(VmHWM|VmRSS|RssAnon|RssFile|Threads):' /proc/"$DL_PID"/status | tr -s '\t ' ' ' |
        paste -sd' '
    # Pss charges shared library pages pro rata; Private_* is what this process alone costs
    # (right after a build the binary's own pages may show up as Private_Dirty).
    grep -E '^(Pss|Shared_Clean|Private_Clean|Private_Dirty):' /proc/"$DL_PID"/smaps_rollup |
        tr -s '\t ' ' ' | paste -sd' '
}
echo "== 1. dlock process while its command (sleep 3) runs, --ttl 3s"
start_holder --ttl 3s rss-lock -- sleep 3
sleep 0.5
echo "-- 0.5 s in, before the first renewal"
memory
sleep 1.5
echo "-- 2 s in, after the first renewal"
memory
wait "$DL_PID"
BENCH_PIDS=()

echo "== 2. /usr/bin/time -v maximum resident set size"
for _ in 1 2 3; do # the first runs load the script into Redis and warm the page cache
    /usr/bin/time -f '%M' "$DLOCK" --redis "$url" run rss-lock -- true 2>/dev/null
    /usr/bin/time -f '%M' flock "$BENCH_TMP/x" true 2>/dev/null
done
for cmd in "$DLOCK --redis $url run rss-lock -- true" "flock $BENCH_TMP/x true" "true"; do
    # shellcheck disable=SC2086 # word splitting of the command is intended
    kb=$(/usr/bin/time -v $cmd 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ { print $2 }')
    printf '%8s kB  %s\n' "$kb" "${cmd/#$DLOCK/dlock}"
done

echo "== 3. CPU while holding: dlock run --ttl 3s -- sleep 10"
before_stats=$(redis_commandstats)
start_holder --ttl 3s cpu-lock -- sleep 10
sleep 0.5
t0=$(date +%s%N) ticks0=$(cpu_ticks "$DL_PID") ns0=$(cpu_ns "$DL_PID")
sleep 9
t1=$(date +%s%N) ticks1=$(cpu_ticks "$DL_PID") ns1=$(cpu_ns "$DL_PID")
wait "$DL_PID"
BENCH_PIDS=()
scripts=$(join <(echo "$before_stats" | LC_ALL=C sort) <(redis_commandstats | LC_ALL=C sort) |
    awk '$1 == "evalsha" || $1 == "eval" { printf "%s %d ", $1, $3 - $2 }')
hz=$(getconf CLK_TCK)
awk -v w="$(((t1 - t0) / 1000000))" -v dt="$((ticks1 - ticks0))" -v hz="$hz" \
    -v dns="$((ns1 - ns0))" -v scripts="$scripts" 'BEGIN {
    printf "window %d ms: utime+stime %d ticks (%.0f ms at %d Hz), schedstat %.3f ms on CPU\n",
           w, dt, dt * 1000 / hz, hz, dns / 1e6
    printf "%.3f ms CPU per second held\n", dns / 1e6 / (w / 1000)
    printf "Redis calls over the whole run (acquire + renewals + release; the first use of a\n"
    printf "script costs an extra EVALSHA answered NOSCRIPT, then EVAL): %s\n", scripts }'
