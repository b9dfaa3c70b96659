# shellcheck shell=bash
# Sourced by bench/peers.sh and bench/seed.sh, whose background workers (BENCH_PIDS) each run
# one lock command or sale at a time.

# Stops each worker and the command it is running: stopped first, so that it cannot start
# another one between the two kills.
stop_workers() {
    local pid
    for pid in "${BENCH_PIDS[@]}"; do
        kill -STOP "$pid" 2>/dev/null || continue
        pkill -P "$pid" 2>/dev/null || true
        kill "$pid" 2>/dev/null || true
        kill -CONT "$pid" 2>/dev/null || true
    done
}
