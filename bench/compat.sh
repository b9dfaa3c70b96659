#!/usr/bin/env bash
# --compat against real clients (tests/interop/, installed by scripts/install-deps.sh):
#  - wake-up gaps, ms from the holder's last line before its release to the waiter's first
#    line after its acquisition (both include the release's round trip and a process's start
#    of the logging command): node-redisson -> dlock --compat redisson, dlock -> node-redisson,
#    redis-py -> dlock --compat setnx; ROUNDS each, as "n p50 max mean";
#  - Redis commands sent by one `dlock run` (no wait, free lock; commands inside scripts are not
#    counted): native, --compat redisson,
#    --compat setnx (INFO commandstats deltas).
#   bench/compat.sh       ROUNDS=20 DLOCK=build/dlock bench/compat.sh
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-20}
INTEROP=$BENCH_ROOT/tests/interop
PY=/usr/bin/python3
[[ -d $INTEROP/node_modules/node-redisson ]] || die "node-redisson missing: scripts/install-deps.sh"
$PY -c 'import redis' 2>/dev/null || die "python3-redis missing: scripts/install-deps.sh"

bench_build
bench_start_redis
url=unix://$REDIS_SOCK

# stats LOG: "n p50 max mean" of the gaps between each "releasing" and the next "started".
stats() {
    awk '$1 == "releasing" { r = $3 } $1 == "started" && r != "" { print $3 - r; r = "" }' "$1" |
        sort -n | awk '{ v[NR] = $1; s += $1 } END {
            if (NR == 0) { print "no gaps"; exit }
            printf "n=%d p50=%d max=%d mean=%.1f\n", NR, v[int((NR + 1) / 2)], v[NR], s / NR }'
}

# A dlock waiter's logging command: "started dlock<pid> <ms>".
# shellcheck disable=SC2016 # expanded by the command's shell
started='echo "started dlock$$ $(date +%s%3N)" >>"$L"'

node_to_dlock() {
    local log=$BENCH_TMP/n2d.log i
    for ((i = 0; i < ROUNDS; i++)); do
        rm -f "$BENCH_TMP/go"
        node "$INTEROP/redisson_worker.js" "$REDIS_PORT" bench-r hold "$log" "$BENCH_TMP/go" &
        until grep -q "^held" "$log" 2>/dev/null; do sleep 0.01; done
        sed -i '/^held/d' "$log"
        L=$log "$DLOCK" --redis "$url" run -w 60s --compat redisson bench-r -c "$started" &
        sleep 0.3
        touch "$BENCH_TMP/go"
        wait
    done
    printf 'node-redisson -> dlock --compat redisson  %s\n' "$(stats "$log")"
}

dlock_to_node() {
    local log=$BENCH_TMP/d2n.log i
    for ((i = 0; i < ROUNDS; i++)); do
        rm -f "$BENCH_TMP/go" "$BENCH_TMP/held"
        # shellcheck disable=SC2016 # expanded by the command's shell
        L=$log D=$BENCH_TMP "$DLOCK" --redis "$url" run --compat redisson bench-r -c \
            'touch "$D/held"; while [ ! -e "$D/go" ]; do sleep 0.005; done
             echo "releasing dlock$$ $(date +%s%3N)" >>"$L"' &
        until [[ -e $BENCH_TMP/held ]]; do sleep 0.01; done
        node "$INTEROP/redisson_worker.js" "$REDIS_PORT" bench-r wait "$log" &
        sleep 0.5
        touch "$BENCH_TMP/go"
        wait
    done
    sed -i 's/^acquired/started/' "$log"
    printf 'dlock --compat redisson -> node-redisson  %s\n' "$(stats "$log")"
}

py_to_dlock() {
    local log=$BENCH_TMP/p2d.log i
    for ((i = 0; i < ROUNDS; i++)); do
        rm -f "$BENCH_TMP/go"
        $PY "$INTEROP/redis_py_worker.py" "$REDIS_PORT" bench-s hold "$log" "$BENCH_TMP/go" &
        until grep -q "^held" "$log" 2>/dev/null; do sleep 0.01; done
        sed -i '/^held/d' "$log"
        L=$log "$DLOCK" --redis "$url" run -w 60s --compat setnx bench-s -c "$started" &
        sleep 0.3
        touch "$BENCH_TMP/go"
        wait
    done
    printf 'redis-py -> dlock --compat setnx          %s\n' "$(stats "$log")"
}

# calls ARGS...: the Redis commands one `dlock ARGS` sends, as "total (name=n ...)".
calls() {
    local before
    "$DLOCK" --redis "$url" "$@" >/dev/null # scripts loaded: no NOSCRIPT retry counted
    before=$(redis_commandstats)
    "$DLOCK" --redis "$url" "$@" >/dev/null
    join <(echo "$before" | LC_ALL=C sort) <(redis_commandstats | LC_ALL=C sort) -a 2 -e 0 \
        -o 0,1.2,2.2 | awk '$1 == "info" || $3 == $2 { next }
        $1 ~ /^(evalsha|eval|blpop|auth|select|hello|ping|subscribe|client|role)$/ {
            n += $3 - $2; d = d sprintf(" %s=%d", $1, $3 - $2) }
        END { printf "%d sent (%s )\n", n, d }'
}

echo "wake-up gaps in ms over $ROUNDS rounds (holder's last line -> waiter's first line)"
node_to_dlock | tee -a "$RESULTS/compat.txt"
dlock_to_node | tee -a "$RESULTS/compat.txt"
py_to_dlock | tee -a "$RESULTS/compat.txt"
echo "Redis commands sent by one run of a free lock"
printf 'native                 %s\n' "$(calls run bench-n -- true)" | tee -a "$RESULTS/compat.txt"
printf -- '--compat redisson     %s\n' "$(calls run --compat redisson bench-r -- true)" |
    tee -a "$RESULTS/compat.txt"
printf -- '--compat setnx        %s\n' "$(calls run --compat setnx bench-s -- true)" |
    tee -a "$RESULTS/compat.txt"
