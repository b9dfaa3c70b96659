#!/usr/bin/env bash
# dlock on a Redis Cluster next to single servers, all private to this run, all over TCP
# loopback: a cluster of 3 masters + 3 replicas (node timeout 1 s, no persistence), one
# redis-server alone ("single"), and one with a replica ("replicated": a cluster master's lot, so
# that what the cluster adds is told apart from what replication costs).
#  1. `dlock bench` (in-process: uncontended acquire+release cycles/s, handover latency with K
#     waiters, whose inverse is the contended throughput), ROUNDS rounds rotating which
#     deployment goes first; medians of the rounds, and the median of the rounds'
#     cluster/replicated ratios.
#  2. `dlock run NAME -- true` as whole processes (bench/pairs.c, alternating pairs): the
#     replicated server vs a cluster seeded with the master of NAME, and with another master
#     (one MOVED: one more round trip and one more connection).
#   bench/cluster.sh            ROUNDS=9 CYCLES=1000 WAITERS=1,8 HANDOVERS=400 PAIRS=200
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-9}
CYCLES=${CYCLES:-1000}
WAITERS=${WAITERS:-1,8}
HANDOVERS=${HANDOVERS:-400}
PAIRS=${PAIRS:-200}
WARMUP=${WARMUP:-20}

bench_build
bench_start_redis
single="redis://127.0.0.1:$REDIS_PORT"

# A master and its replica, with the cluster nodes' replication settings.
start_node() { # PORT ARGS...: a private redis-server on PORT, waited for; fails if PORT is taken
    local port=$1 dir=$BENCH_TMP/node-$1
    shift
    mkdir -p "$dir"
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
        --repl-diskless-sync-delay 0 --dir "$dir" --logfile "$dir/redis.log" "$@" &
    BENCH_PIDS+=($!)
    for _ in {1..50}; do
        kill -0 "$!" 2>/dev/null || return 1 # a port was taken: redis-server exits
        redis-cli -p "$port" info server 2>/dev/null | grep -q "^process_id:$!" && return 0
        sleep 0.05
    done
    return 1
}
until primary=$((20000 + RANDOM % 11000)) && start_node "$primary"; do :; done
until secondary=$((20000 + RANDOM % 11000)) &&
    start_node "$secondary" --replicaof 127.0.0.1 "$primary"; do :; done
until redis-cli -p "$secondary" info replication | grep -q master_link_status:up; do sleep 0.05; done
replicated="redis://127.0.0.1:$primary"

# Six nodes on random ports below 32768 (bus ports too: in the ephemeral range an outgoing
# connection may hold one), then redis-cli --cluster create.
cluster_ports=()
start_cluster() {
    local i port
    for i in 0 1 2 3 4 5; do
        for _ in 1 2 3 4 5 6 7 8; do
            port=$((20000 + RANDOM % 11000))
            if start_node "$port" --cluster-enabled yes --cluster-port $((port + 1000)) \
                --cluster-config-file "$BENCH_TMP/node-$port/nodes.conf" \
                --cluster-node-timeout 1000; then
                cluster_ports+=("$port")
                continue 2
            fi
        done
        die "could not start cluster node $i"
    done
    local -a addresses=()
    for port in "${cluster_ports[@]}"; do addresses+=("127.0.0.1:$port"); done
    redis-cli --cluster create "${addresses[@]}" --cluster-replicas 1 --cluster-yes \
        >"$BENCH_TMP/create.log" 2>&1 || die "cluster create failed: $(cat "$BENCH_TMP/create.log")"
    for port in "${cluster_ports[@]}"; do
        until redis-cli -p "$port" cluster info | grep -q '^cluster_state:ok'; do sleep 0.05; done
    done
}
start_cluster
seed=127.0.0.1:${cluster_ports[0]}
cluster="redis://$seed"
echo "single $single; replicated $replicated (replica on $secondary); cluster seeded with $seed (3 masters + 3 replicas)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- 1. dlock bench, interleaved ----------------------------------------------------------
# fields JSON: "cycles minimal p50(K1) p99(K1) p50(K2) p99(K2) ..."
fields() {
    local json=$1
    printf '%s ' "$(sed -n 's/.*"cycles_per_s":\([0-9.]*\).*/\1/p' <<<"$json")"
    printf '%s ' "$(sed -n 's/.*"minimal_cycles_per_s":\([0-9.]*\).*/\1/p' <<<"$json")"
    grep -o '"p50_ms":[0-9.]*,"p99_ms":[0-9.]*' <<<"$json" |
        sed 's/"p50_ms":\([0-9.]*\),"p99_ms":\([0-9.]*\)/\1 \2/' | tr '\n' ' '
    echo
}
: >"$RESULTS/cluster-bench.txt"
deployments=(single replicated cluster)
for ((r = 1; r <= ROUNDS; r++)); do
    for ((d = 0; d < 3; d++)); do
        which=${deployments[(r + d) % 3]}
        json=$("$DLOCK" --redis "${!which}" bench --json --cycles "$CYCLES" -k "$WAITERS" \
            --handovers "$HANDOVERS")
        echo "$r $which $(fields "$json")" | tee -a "$RESULTS/cluster-bench.txt"
    done
done
echo "round deployment: cycles/s minimal-cycles/s then p50 p99 ms per K in $WAITERS"
# Medians over rounds, per deployment; and the median of each round's cluster/replicated ratio
# (the two ran one after the other, under the same load: the figure that counts).
awk -v waiters="$WAITERS" '
    function median(list,   n, v, i, j, t) {
        n = split(list, v, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    { for (f = 3; f <= NF; f++) { col[$2, f] = col[$2, f] " " $f; at[$1, $2, f] = $f }; nf = NF; rounds = $1 }
    END {
        nk = split(waiters, k, ",")
        name[3] = "uncontended cycles/s"; name[4] = "minimal-lock cycles/s"
        for (i = 1; i <= nk; i++) { name[3 + 2 * i] = "handover p50 ms, K=" k[i]; name[4 + 2 * i] = "handover p99 ms, K=" k[i] }
        printf "%-26s %10s %10s %10s %10s\n", "median of rounds", "single", "replicated", "cluster", "c/r"
        for (f = 3; f <= nf; f++) {
            ratios = ""
            for (r = 1; r <= rounds; r++) if (at[r, "replicated", f] > 0) ratios = ratios " " at[r, "cluster", f] / at[r, "replicated", f]
            printf "%-26s %10.3f %10.3f %10.3f %10.3f\n", name[f], median(col["single", f]),
                   median(col["replicated", f]), median(col["cluster", f]), median(ratios)
        }
    }' "$RESULTS/cluster-bench.txt" | tee "$RESULTS/cluster-bench-summary.txt"
echo "c/r: median over rounds of cluster / replicated, measured one after the other"

# --- 2. whole `dlock run` processes, alternating pairs ---------------------------------------
cc -O2 -o "$BENCH_TMP/pairs" "$BENCH_ROOT/bench/pairs.c"
summary() { # NAME TSV
    awk -F'\t' -v name="$1" 'NR > 1 { a[++n] = $2; b[n] = $3; r[n] = $4 }
        function med(x, n,   i, j, t, s) {
            for (i = 1; i <= n; i++) s[i] = x[i]
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
            return n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
        }
        END { printf "%-40s %d pairs  replicated ms %.3f  cluster ms %.3f  median ratio %.3f\n",
                     name, n, med(a, n), med(b, n), med(r, n) }' "$2"
}
# A name on the seed's own slots, and one on another master's.
owner() { redis-cli -p "${seed#*:}" cluster nodes | awk -v s="$(redis-cli -p "${seed#*:}" cluster keyslot "$1")" '
    $3 ~ /master/ { for (i = 9; i <= NF; i++) { split($i, r, "-"); if (r[2] == "") r[2] = r[1]
                    if (s >= r[1] && s <= r[2]) { split($2, a, "@"); print a[1] } } }'; }
for i in $(seq 0 200); do
    [[ -z ${local_name:-} && $(owner "n$i") == "$seed" ]] && local_name=n$i
    [[ -z ${remote_name:-} && $(owner "n$i") != "$seed" ]] && remote_name=n$i
done
for case in "$local_name:seed owns the name" "$remote_name:another master owns it"; do
    name=${case%%:*}
    "$BENCH_TMP/pairs" "$PAIRS" "$WARMUP" ::: "$DLOCK" --redis "$replicated" run "$name" -- true ::: \
        "$DLOCK" --redis "$cluster" run "$name" -- true >"$RESULTS/cluster-pairs-$name.tsv"
    summary "run -- true, ${case#*:}" "$RESULTS/cluster-pairs-$name.tsv"
done | tee "$RESULTS/cluster-pairs-summary.txt"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
