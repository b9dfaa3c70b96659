# shellcheck shell=bash
# Helpers shared by the bench/ scripts: build dlock and run a private, throw-away redis-server.
# Source it; it sets DLOCK, BENCH_TMP, REDIS_SOCK, REDIS_PORT and REDIS_PID.

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS=${RESULTS:-$BENCH_ROOT/build-bench/results}
BENCH_PIDS=() # extra background processes a script wants stopped on exit

die() {
    echo "${0##*/}: $*" >&2
    exit 1
}

# DLOCK=path skips the build; otherwise a Release build goes to build-bench/.
bench_build() {
    if [[ -n ${DLOCK:-} ]]; then
        DLOCK=$(realpath "$DLOCK")
    else
        cmake -S "$BENCH_ROOT" -B "$BENCH_ROOT/build-bench" -DCMAKE_BUILD_TYPE=Release \
            -DDLOCK_BUILD_TESTS=OFF >/dev/null
        make -C "$BENCH_ROOT/build-bench" -j2 dlock >/dev/null
        DLOCK=$BENCH_ROOT/build-bench/dlock
    fi
    [[ -x $DLOCK ]] || die "no dlock binary at $DLOCK"
    mkdir -p "$RESULTS"
}

bench_cleanup() {
    local pid
    for pid in "${BENCH_PIDS[@]}" ${REDIS_PID:+"$REDIS_PID"}; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    [[ -n ${BENCH_TMP:-} ]] && rm -rf "$BENCH_TMP"
    return 0
}

# One redis-server, private to this run: unix socket in a temp dir plus a random free port on
# 127.0.0.1 (never 6379), no persistence. Stopped by the EXIT trap. Arguments: more options of
# redis-server.
bench_start_redis() {
    BENCH_TMP=$(mktemp -d /tmp/dlock-bench.XXXXXX)
    REDIS_SOCK=$BENCH_TMP/redis.sock
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM
    local attempt
    for attempt in 1 2 3 4 5 6 7 8; do
        REDIS_PORT=$((20000 + RANDOM % 30000))
        redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --unixsocket "$REDIS_SOCK" \
            --unixsocketperm 700 --save '' --appendonly no --dir "$BENCH_TMP" \
            --logfile "$BENCH_TMP/redis.log" "$@" &
        REDIS_PID=$!
        for _ in {1..50}; do
            kill -0 "$REDIS_PID" 2>/dev/null || break # port taken: redis-server exits
            # Both listeners must answer, and the TCP one must be ours.
            if redis-cli -s "$REDIS_SOCK" ping >/dev/null 2>&1 &&
                redis-cli -h 127.0.0.1 -p "$REDIS_PORT" info server 2>/dev/null |
                grep -q "^process_id:$REDIS_PID"; then
                return 0
            fi
            sleep 0.1
        done
        kill "$REDIS_PID" 2>/dev/null || true
        wait "$REDIS_PID" 2>/dev/null || true
        echo "redis-server attempt $attempt on port $REDIS_PORT failed; retrying" >&2
    done
    REDIS_PID=
    die "could not start a private redis-server"
}

# Calls per command from INFO commandstats, as "name calls" lines.
redis_commandstats() {
    redis-cli -s "$REDIS_SOCK" info commandstats |
        sed -n 's/^cmdstat_\([^:]*\):calls=\([0-9]*\),.*/\1 \2/p'
}

# gaps LOG: prints "n p50 p99 max mean" of the handover gaps in ms; fails on overlapping jobs.
gaps() {
    sort -k2,2n "$1" | awk '
        $1 == "s" { if (open) { print "overlap at " $2 > "/dev/stderr"; exit 1 }
                    if (last != "") print ($2 - last) * 1000; open = 1 }
        $1 == "e" { last = $2; open = 0 }' | sort -n |
        awk '{ v[NR] = $1; sum += $1 }
             END { p50 = int(NR * 0.50 + 0.999); p99 = int(NR * 0.99 + 0.999)
                   printf "%d %.2f %.2f %.2f %.2f\n", NR, v[p50], v[p99], v[NR], sum / NR }'
}
