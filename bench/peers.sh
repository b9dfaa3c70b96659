#!/usr/bin/env bash
# dlock side by side with other locks, in one run, all on private servers (a redis-server on a
# unix socket and a random port, an etcd on random ports with its data in tmpfs), over TCP
# loopback unless said otherwise:
#  1. start-up of the lock CLIs, as a pipeline sees it (output read to EOF; bench/peers/eofpairs.c):
#     `flock F true` against `etcdctl lock NAME -- true`, a redis-cli SET NX PX / compare-and-delete
#     pair in sh (bench/peers/redis-cli-lock.sh) and `dlock run NAME -- true` (TCP and unix
#     socket), alternating pairs; medians of each side and of the pairwise ratios.
#  2. in-process uncontended acquire+release cycles/s: node-redlock, redis-semaphore (Mutex),
#     redis-py's Lock, and `dlock bench` (which also times a minimal SET NX + compare-and-delete
#     lock in the same process); ROUNDS rounds, medians.
#  3. handover: K+1 workers (K = WAITERS) share one lock; each takes it, runs a job of 0.5 to
#     1.5 x HOLD seconds (random, so that a poller's retries fall at any phase of the release:
#     a fixed hold equal to a retry interval would make polling look free or twice as costly),
#     releases it, then sits out until another worker's job has started, so at every
#     release K workers wait. The gap is one job's end to the next job's start (p50/p99/max),
#     with Redis or etcd calls per handover. CLI workers run the job as `bash -c` under the CLI
#     (so their gaps include a bash start, as the flock row shows); library workers are one
#     process each and run the job in-process. Libraries at their default retry interval and at
#     a tuned one (see bench/peers/worker.{js,py}); the redis-cli lock retrying every 0.1 s and
#     every 0.01 s.
#   bench/peers.sh        PARTS="startup uncontended handover" PAIRS=100 WARMUP=10 ROUNDS=3 CYCLES=2000 WAITERS="1 8" HANDOVERS=100 HOLD=0.1
#   DLOCK=path NODE_DEPS=dir bench/peers.sh
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=bench/peers/workers.sh
source "$(dirname "$0")/peers/workers.sh"

PAIRS=${PAIRS:-100}
WARMUP=${WARMUP:-10}
ROUNDS=${ROUNDS:-3}
CYCLES=${CYCLES:-2000}
WAITERS=${WAITERS:-1 8}
HANDOVERS=${HANDOVERS:-100}
HOLD=${HOLD:-0.1}
PARTS=${PARTS:-startup uncontended handover}
NODE_DEPS=${NODE_DEPS:-$BENCH_ROOT/build-bench/peers-node}
PEERS=$BENCH_ROOT/bench/peers
NODE_PACKAGES=(redlock@4.2.0 redis-semaphore@5.8.0 ioredis@5.9.3)

prerequisites() {
    local missing=() tool
    for tool in flock etcd etcdctl redis-server redis-cli node npm curl cc; do
        command -v "$tool" >/dev/null || missing+=("$tool")
    done
    /usr/bin/python3 -c 'import redis' 2>/dev/null || missing+=("python3-redis (for /usr/bin/python3)")
    ((${#missing[@]} == 0)) && return 0
    echo "missing: ${missing[*]}" >&2
    die "apt-get install -y util-linux etcd-server etcd-client redis-server redis-tools nodejs npm curl gcc python3-redis"
}

node_deps() {
    if ! NODE_PATH=$NODE_DEPS/node_modules node -e 'require("redlock"); require("redis-semaphore"); require("ioredis")' 2>/dev/null; then
        mkdir -p "$NODE_DEPS"
        [[ -f $NODE_DEPS/package.json ]] || echo '{"private": true}' >"$NODE_DEPS/package.json"
        npm install --prefix "$NODE_DEPS" --no-audit --no-fund --loglevel=error "${NODE_PACKAGES[@]}" >/dev/null
    fi
    export NODE_PATH=$NODE_DEPS/node_modules
}

# A single-member etcd on two random free ports, data in tmpfs (as redis-server keeps its data in
# memory); stopped by the EXIT trap.
start_etcd() {
    local dir=/dev/shm
    [[ -d $dir && -w $dir ]] || dir=$BENCH_TMP
    ETCD_DIR=$(mktemp -d "$dir/dlock-bench-etcd.XXXXXX")
    local attempt client peer
    for attempt in 1 2 3 4 5; do
        client=$((20000 + RANDOM % 30000))
        peer=$((20000 + RANDOM % 30000))
        ETCD=http://127.0.0.1:$client
        etcd --name peers --data-dir "$ETCD_DIR/data" --listen-client-urls "$ETCD" \
            --advertise-client-urls "$ETCD" --listen-peer-urls "http://127.0.0.1:$peer" \
            --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
            --initial-cluster "peers=http://127.0.0.1:$peer" >"$ETCD_DIR/etcd.log" 2>&1 &
        ETCD_PID=$!
        for _ in {1..100}; do
            kill -0 "$ETCD_PID" 2>/dev/null || break
            etcdctl --endpoints="$ETCD" endpoint health >/dev/null 2>&1 && return 0
            sleep 0.1
        done
        kill "$ETCD_PID" 2>/dev/null || true
        wait "$ETCD_PID" 2>/dev/null || true
        ETCD_PID=
        rm -rf "$ETCD_DIR/data"
        echo "etcd attempt $attempt on ports $client/$peer failed; retrying" >&2
    done
    die "could not start a private etcd: $(tail -3 "$ETCD_DIR/etcd.log")"
}

peers_cleanup() {
    stop_workers
    bench_cleanup
    if [[ -n ${ETCD_PID:-} ]]; then
        kill "$ETCD_PID" 2>/dev/null || true
        wait "$ETCD_PID" 2>/dev/null || true
    fi
    [[ -n ${ETCD_DIR:-} ]] && rm -rf "$ETCD_DIR"
    return 0
}

median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# --- 1. start-up -------------------------------------------------------------------------------
startup() {
    local -a names=(etcdctl redis-cli dlock-tcp dlock-unix)
    cc -O2 -o "$BENCH_TMP/eofpairs" "$PEERS/eofpairs.c"
    echo "== start-up: spawn to output EOF and exit, alternating pairs with flock, $PAIRS pairs each =="
    REDIS_CLI_ARGS="-p $REDIS_PORT" "$BENCH_TMP/eofpairs" "$PAIRS" "$WARMUP" \
        ::: flock "$BENCH_TMP/flock.lock" true \
        ::: etcdctl --endpoints="$ETCD" lock peers-startup -- true \
        ::: "$PEERS/redis-cli-lock.sh" peers-startup true \
        ::: "$DLOCK" --redis "redis://127.0.0.1:$REDIS_PORT" run peers-startup -- true \
        ::: "$DLOCK" --redis "unix://$REDIS_SOCK" run peers-startup -- true \
        >"$RESULTS/peers-startup.tsv"
    local i
    for i in 1 2 3 4; do
        awk -F'\t' -v c="$i" 'NR > 1 && $2 == c { print $3, $4, $5 }' "$RESULTS/peers-startup.tsv" >"$BENCH_TMP/s"
        printf '%-11s flock ms %.3f  tool ms %.3f  tool/flock median of ratios %.2f\n' "${names[i - 1]}" \
            "$(cut -d' ' -f1 "$BENCH_TMP/s" | median)" "$(cut -d' ' -f2 "$BENCH_TMP/s" | median)" \
            "$(cut -d' ' -f3 "$BENCH_TMP/s" | median)"
    done
}

# --- 2. uncontended in-process cycles ----------------------------------------------------------
# Prints "cycles/s calls-per-cycle" of one library run.
library_cycles() {
    local before rate after
    before=$(redis_total_calls)
    case $1 in
    redis-py) rate=$(/usr/bin/python3 "$PEERS/worker.py" default "$REDIS_PORT" cycles "$CYCLES") ;;
    *) rate=$(node "$PEERS/worker.js" "$1" default "$REDIS_PORT" cycles "$CYCLES") ;;
    esac
    after=$(redis_total_calls)
    echo "$rate $(awk -v d=$((after - before)) -v n=$((CYCLES + 200)) 'BEGIN { printf "%.2f", d / n }')"
}

redis_total_calls() { redis_commandstats | awk '$1 != "info" { s += $2 } END { print s + 0 }'; }

uncontended() {
    echo "== uncontended acquire+release, in-process, $CYCLES cycles, median of $ROUNDS rounds (TCP) =="
    local round lib line
    for ((round = 1; round <= ROUNDS; round++)); do
        for lib in redlock semaphore redis-py; do
            echo "$lib $(library_cycles "$lib")"
        done
        "$DLOCK" --redis "redis://127.0.0.1:$REDIS_PORT" bench --cycles "$CYCLES" -k 1 --handovers 10 --json |
            sed -n 's/.*"cycles_per_s":\([0-9.]*\),"minimal_cycles_per_s":\([0-9.]*\).*/dlock-bench \1 -\nminimal-in-dlock-bench \2 -/p'
    done >"$RESULTS/peers-cycles.txt"
    for lib in redlock semaphore redis-py dlock-bench minimal-in-dlock-bench; do
        line=$(awk -v l="$lib" '$1 == l { print $2 }' "$RESULTS/peers-cycles.txt" | median)
        printf '%-23s %9.0f cycles/s  Redis calls per cycle %s\n' "$lib" "$line" \
            "$(awk -v l="$lib" '$1 == l { c = $3 } END { print c }' "$RESULTS/peers-cycles.txt")"
    done
}

# --- 3. handover -------------------------------------------------------------------------------
# The job every CLI worker runs under its lock: $0 log, $1 counter, $2 jobs, $3 worker, $4 HOLD
# in ms. It writes the counter value it took to counter.WORKER so the worker knows when it may
# compete again.
# shellcheck disable=SC2016 # expanded by the job's bash
JOB='read -r n <"$1"; ((n < $2)) || exit 0; echo $((n + 1)) >"$1"; echo $((n + 1)) >"$1.$3"
h=$(($4 / 2 + RANDOM % ($4 + 1))); printf -v h %d.%03d $((h / 1000)) $((h % 1000))
echo "s $EPOCHREALTIME $3" >>"$0"; sleep "$h"; echo "e $EPOCHREALTIME $3" >>"$0"'

# cli_worker ID LOG COUNTER LOCK...: runs jobs under LOCK until the counter reaches HANDOVERS+1.
cli_worker() {
    local id=$1 log=$2 counter=$3 seen mine nap jobs=$((HANDOVERS + 1))
    shift 3
    exec {nap}<>"$BENCH_TMP/nap"
    local hold_ms
    hold_ms=$(awk -v h="$HOLD" 'BEGIN { print int(h * 1000) }')
    while "$@" bash -c "$JOB" "$log" "$counter" "$jobs" "$id" "$hold_ms"; do
        read -r seen <"$counter" || true # no newline: written by another tool, or being rewritten
        ((seen < jobs)) || return 0
        read -r mine <"$counter.$id" 2>/dev/null || mine=
        # Sit out until another worker's job has started (read -t: a 1 ms nap without a fork);
        # an empty read is the holder rewriting the counter.
        while [[ -z $seen || $seen == "$mine" ]] && ((seen < jobs)); do
            read -r -t 0.001 -u "$nap" _ || true
            read -r seen <"$counter" || true
        done
    done
    echo "worker $id: lock command failed: $*" >&2
    return 1
}

# lock_command TOOL: the lock CLI prefix for TOOL, in the array LOCK.
lock_command() {
    case $1 in
    flock) LOCK=(flock -w 600 "$BENCH_TMP/flock.lock") ;;
    etcdctl) LOCK=(etcdctl --endpoints="$ETCD" lock peers-bench --) ;;
    redis-cli-0.1 | redis-cli-0.01)
        LOCK=(env REDIS_CLI_ARGS="-p $REDIS_PORT" LOCK_RETRY="${1#redis-cli-}" "$PEERS/redis-cli-lock.sh" -w peers-bench) ;;
    dlock-run) LOCK=("$DLOCK" --redis "redis://127.0.0.1:$REDIS_PORT" run -w 600s peers-bench --) ;;
    *) LOCK=() ;;
    esac
}

start_worker() { # TOOL ID LOG COUNTER
    local tool=$1 id=$2 log=$3 counter=$4
    lock_command "$tool"
    if ((${#LOCK[@]})); then
        cli_worker "$id" "$log" "$counter" "${LOCK[@]}" &
    elif [[ $tool == redis-py-* ]]; then
        /usr/bin/python3 "$PEERS/worker.py" "${tool#redis-py-}" "$REDIS_PORT" handover \
            "$id" "$log" "$counter" $((HANDOVERS + 1)) "$HOLD" &
    else # node-redlock-PROFILE, redis-semaphore-PROFILE
        local lib=${tool%-*}
        node "$PEERS/worker.js" "${lib#*-}" "${tool##*-}" "$REDIS_PORT" handover \
            "$id" "$log" "$counter" $((HANDOVERS + 1)) "$HOLD" &
    fi
    BENCH_PIDS+=($!)
}

etcd_calls() { # method calls, summed over codes and services, from the gRPC server metrics
    curl -s "$ETCD/metrics" | sed -n 's/^grpc_server_started_total{.*grpc_method="\([^"]*\)".*} \([0-9.e+]*\)$/\1 \2/p' |
        awk '{ s[$1] += $2 } END { for (m in s) if (s[m] > 0) printf "%s %d\n", m, s[m] }'
}

calls_snapshot() { # TOOL: "command calls" lines of the server TOOL talks to (none for flock)
    case $1 in
    flock) ;;
    etcdctl) etcd_calls ;;
    *) redis_commandstats | awk '$1 != "info"' ;;
    esac
}

calls_per_handover() { # BEFORE AFTER
    join -a 2 -e 0 -o 0,1.2,2.2 <(LC_ALL=C sort <<<"$1") <(LC_ALL=C sort <<<"$2") |
        awk -v h="$HANDOVERS" '$3 > $2 { total += $3 - $2; detail = detail sprintf(" %s=%.2f", $1, ($3 - $2) / h) }
            END { if (total) printf "calls=%.2f%s", total / h, detail; else printf "calls=-" }'
}

handover_run() { # TOOL K: one result line
    local tool=$1 k=$2 log=$BENCH_TMP/$1-$2.log counter=$BENCH_TMP/$1-$2.counter before w
    echo 0 >"$counter"
    before=$(calls_snapshot "$tool")
    BENCH_PIDS=()
    for ((w = 0; w <= k; w++)); do start_worker "$tool" "$w" "$log" "$counter"; done
    for w in "${BENCH_PIDS[@]}"; do
        wait "$w" || { stop_workers; die "$tool K=$k: a worker failed"; }
    done
    BENCH_PIDS=()
    local shares
    shares=$(awk '$1 == "s" { n[$3]++ } END { for (w in n) print n[w] }' "$log" | sort -n | sed -n '1p;$p' | paste -sd/)
    printf '%-23s K=%d  %s  jobs/worker min/max %s  %s\n' "$tool" "$k" "$(gaps "$log")" "$shares" \
        "$(calls_per_handover "$before" "$(calls_snapshot "$tool")")" | tee -a "$RESULTS/peers-handover.txt"
}

handover() {
    local tools=(flock etcdctl redis-cli-0.1 redis-cli-0.01 dlock-run node-redlock-default node-redlock-tuned
        redis-semaphore-default redis-semaphore-tuned redis-py-default redis-py-tuned)
    echo "== handover: K+1 workers, $HANDOVERS handovers, jobs of 0.5-1.5 x ${HOLD}s; gaps in ms: n p50 p99 max mean (TCP) =="
    mkfifo "$BENCH_TMP/nap"
    : >"$RESULTS/peers-handover.txt"
    local k tool
    for k in $WAITERS; do
        for tool in "${tools[@]}"; do handover_run "$tool" "$k"; done
    done
    echo "dlock bench (in-process), same server:"
    "$DLOCK" --redis "redis://127.0.0.1:$REDIS_PORT" bench --cycles 100 -k "${WAITERS// /,}" --handovers "$HANDOVERS" |
        sed -n '/waiters/,$p'
}

prerequisites
bench_build
bench_start_redis
trap peers_cleanup EXIT
start_etcd
node_deps
mkdir -p "$RESULTS"
echo "dlock $("$DLOCK" --version) ($DLOCK); $(redis-server --version | cut -d' ' -f1-3); etcd $(etcd --version | sed -n 's/^etcd Version: //p')"
echo "node $(node --version):$(for p in redlock redis-semaphore ioredis; do printf ' %s@%s' "$p" "$(node -p "require('$p/package.json').version")"; done)"
echo "redis-py $(/usr/bin/python3 -c 'import redis; print(redis.__version__)') (/usr/bin/python3 $(/usr/bin/python3 -c 'import platform; print(platform.python_version())')); $(flock --version)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for part in $PARTS; do
    case $part in
    startup | uncontended | handover) "$part" ;;
    *) die "unknown part '$part' (PARTS: startup uncontended handover)" ;;
    esac
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "data: $RESULTS/peers-{startup.tsv,cycles.txt,handover.txt}"
