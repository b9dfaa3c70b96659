#!/usr/bin/env bash
# The seed scenario: STOCK items (a counter in a file), WORKERS workers; each worker loops over
# sales until the stock runs out, each sale a new lock process around a /bin/sh script that reads
# the stock, stops if it is 0, else writes it back one less and records the sale. Variants, in
# the command lines a user would write (the sale script in $SALE, Redis in DLOCK_REDIS_URL):
#   dlock run -w 10m stock -c "$SALE"
#   flock -w 600 stock.lock -c "$SALE"        (SHELL=/bin/sh, as cron sets it)
#   sh -c "$SALE"                             (no lock: the oversold count shows the race)
# Reports per variant: sales/s, sales, oversold (sales beyond STOCK) and the final stock, each
# worker's sales (min/max/stddev), CPU ms per sale of the workers and everything they ran (bash
# `times`) and of redis-server (INFO cpu); then dlock/flock of sales/s per round and their
# median. ROUNDS rounds, the order of dlock and flock alternating.
#   bench/seed.sh       STOCK=5000 WORKERS=50 ROUNDS=2 DLOCK=path
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=bench/peers/workers.sh
source "$(dirname "$0")/peers/workers.sh"

STOCK=${STOCK:-5000}
WORKERS=${WORKERS:-50}
ROUNDS=${ROUNDS:-2}

bench_build
bench_start_redis
export DLOCK_REDIS_URL=redis://127.0.0.1:$REDIS_PORT SHELL=/bin/sh
export STOCK_FILE=$BENCH_TMP/stock SALES_FILE=$BENCH_TMP/sales
# Unlocked, a read can fall between another sale's truncation and its write: read again (unless
# the file is gone: an interrupted run).
# shellcheck disable=SC2016 # expanded by the sale's sh; W is the worker's number
SALE='until read -r n <"$STOCK_FILE"; do [ -f "$STOCK_FILE" ] || exit 2; done; [ "$n" -gt 0 ] || exit 3; echo $((n - 1)) >"$STOCK_FILE"; echo "$W" >>"$SALES_FILE"'

sell() { # VARIANT: one sale; exit 3 once sold out
    case $1 in
    dlock) "$DLOCK" run -w 10m stock -c "$SALE" ;;
    flock) flock -w 600 "$BENCH_TMP/stock.lock" -c "$SALE" ;;
    none) sh -c "$SALE" ;;
    esac
}

worker() { # VARIANT W
    local status
    export W=$2
    while :; do
        status=0
        sell "$1" || status=$?
        ((status == 0)) || break
    done
    ((status == 3)) || {
        echo "worker $2 ($1): a sale exited $status" >&2
        return 1
    }
}

redis_cpu() { redis-cli -s "$REDIS_SOCK" info cpu | awk -F: '/^used_cpu_(sys|user):/ { s += $2 } END { print s }'; }

# Seconds of CPU this shell's waited-for descendants used so far, from `times` (its 2nd line),
# which goes to a file: a pipe or $(...) would run `times` in a fresh subshell that has none.
children_cpu() {
    times >"$BENCH_TMP/times"
    awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } print s }' "$BENCH_TMP/times"
}

# run VARIANT (in this shell, so that the EXIT trap stops its workers): prints "variant sales/s
# sales oversold final-stock min max stddev client-cpu-ms/sale redis-cpu-ms/sale"
run() {
    local variant=$1 w start end
    echo "$STOCK" >"$STOCK_FILE"
    : >"$SALES_FILE"
    local redis_before client_before
    redis_before=$(redis_cpu)
    children_cpu >"$BENCH_TMP/cpu"
    read -r client_before <"$BENCH_TMP/cpu"
    BENCH_PIDS=()
    start=$EPOCHREALTIME
    for ((w = 0; w < WORKERS; w++)); do
        worker "$variant" "$w" &
        BENCH_PIDS+=($!)
    done
    for w in "${BENCH_PIDS[@]}"; do wait "$w" || die "$variant: a worker failed"; done
    end=$EPOCHREALTIME
    BENCH_PIDS=()
    local final client redis
    read -r final <"$STOCK_FILE"
    children_cpu >"$BENCH_TMP/cpu"
    read -r client <"$BENCH_TMP/cpu"
    client=$(awk -v a="$client_before" -v b="$client" 'BEGIN { print b - a }')
    redis=$(awk -v a="$redis_before" -v b="$(redis_cpu)" 'BEGIN { print b - a }')
    awk -v variant="$variant" -v workers="$WORKERS" -v stock="$STOCK" -v secs="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" \
        -v final="$final" -v client="$client" -v redis="$redis" '{ n[$1]++; sales++ }
        END { min = -1
              for (w = 0; w < workers; w++) { c = n[w] + 0; sum += c; sq += c * c
                  if (min < 0 || c < min) min = c; if (c > max) max = c }
              mean = sum / workers; sd = sqrt(sq / workers - mean * mean)
              printf "%-6s %8.1f %6d %6d %6d %5d %5d %6.2f %6.2f %6.3f\n", variant, sales / secs, sales,
                     sales - stock, final, min, max, sd, client * 1000 / sales, redis * 1000 / sales }' "$SALES_FILE"
}

echo "$(date -u +%FT%TZ) dlock $("$DLOCK" --version) ($DLOCK); $(redis-server --version | cut -d' ' -f1-3); $(flock --version)"
echo "stock $STOCK, $WORKERS workers, $ROUNDS rounds; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "variant sales/s  sales oversold final  min   max stddev  CPU ms/sale: clients  redis (min/max/stddev: sales per worker)"
seed_cleanup() {
    stop_workers
    bench_cleanup
}
trap seed_cleanup EXIT
: >"$RESULTS/seed.txt"
for ((round = 1; round <= ROUNDS; round++)); do
    order=(dlock flock)
    ((round % 2)) || order=(flock dlock)
    for variant in "${order[@]}" none; do
        run "$variant" >"$BENCH_TMP/line"
        tee -a "$RESULTS/seed.txt" <"$BENCH_TMP/line"
        cat "$BENCH_TMP/line" >>"$BENCH_TMP/round"
    done
    awk -v r="$round" '{ rate[$1] = $2 } END { printf "round %d dlock/flock %.2f\n", r, rate["dlock"] / rate["flock"] }' \
        "$BENCH_TMP/round" | tee -a "$RESULTS/seed.txt"
    rm "$BENCH_TMP/round"
done
awk '/dlock\/flock/ { print $4 }' "$RESULTS/seed.txt" | sort -g |
    awk '{ v[NR] = $1 } END { printf "median dlock/flock sales/s over %d rounds: %.2f\n", NR, NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
