#!/bin/bash
# The lock for the rest of a script, as a script sees it: `out=$(dlock acquire NAME); eval
# "$out"; dlock release` against flock's idiom (`exec 9>F; flock -n 9; exec 9>&-`), each in its
# own bash, in alternating pairs; and the time from `kill -9` of a holding script to the name
# free (EXISTS every millisecond over one connection, which redis-cli takes a few ms to open:
# an upper bound).
#   bench/acquire.sh        # PAIRS=200 KILLS=20 [DLOCK=path]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
PAIRS=${PAIRS:-200}
KILLS=${KILLS:-20}
bench_build
bench_start_redis
export DLOCK DLOCK_REDIS_URL=unix://$REDIS_SOCK LOCKFILE=$BENCH_TMP/flock.lock

# Wall time in µs of one bash running $1.
timed() {
    local start end
    start=$(date +%s%N)
    bash -c "$1" || die "failed: $1"
    end=$(date +%s%N)
    echo $(((end - start) / 1000))
}

dlock_idiom='out=$("$DLOCK" acquire bench-acquire) || exit 1; eval "$out"; "$DLOCK" release'
flock_idiom='exec 9>"$LOCKFILE"; flock -n 9 || exit 1; exec 9>&-'
: >"$BENCH_TMP/pairs"
for ((i = 0; i < PAIRS; i++)); do
    d=$(timed "$dlock_idiom")
    f=$(timed "$flock_idiom")
    echo "$d $f" >>"$BENCH_TMP/pairs"
done
echo "acquire+eval+release vs flock's fd idiom, $PAIRS alternating pairs (µs, whole bash):"
awk '{print $1, $2, $1 / $2}' "$BENCH_TMP/pairs" | sort -k3 -n | awk '
    {d[NR] = $1; f[NR] = $2; r[NR] = $3}
    END {print "  median pair ratio", r[int((NR + 1) / 2)]}'
for col in 1 2; do
    sort -n -k$col "$BENCH_TMP/pairs" | awk -v c=$col -v name="$([[ $col == 1 ]] && echo dlock || echo flock)" '
        {v[NR] = $c} END {print "  " name " median", v[int((NR + 1) / 2)], "p90", v[int(NR * 0.9)]}'
done

echo "kill -9 of a holding script to the name free, $KILLS times (ms):"
for ((i = 0; i < KILLS; i++)); do
    bash -c 'out=$("$DLOCK" acquire bench-kill) || exit 1; eval "$out"; exec sleep 60' &
    holder=$!
    until [[ $(redis-cli -s "$REDIS_SOCK" exists 'dlock:{bench-kill}:lock') == 1 ]]; do sleep 0.01; done
    start=$(date +%s%N)
    kill -9 "$holder"
    { redis-cli -s "$REDIS_SOCK" -r 100000 -i 0.001 exists 'dlock:{bench-kill}:lock' || true; } |
        grep -m1 -q '^0'
    end=$(date +%s%N)
    wait "$holder" 2>/dev/null || true
    echo $(((end - start) / 1000))
done | sort -n | awk '{v[NR] = $1} END {printf "  median %.1f, max %.1f\n", v[int((NR + 1) / 2)] / 1000, v[NR] / 1000}'
