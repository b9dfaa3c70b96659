#!/bin/sh
# Quick start: install, build, then start two copies of the same cron job at the same moment.
# One runs the job, the other skips it and says who holds the lock.
# Uses Redis at $DLOCK_REDIS_URL (default redis://127.0.0.1:6379); if none answers there, a
# private redis-server is started in a temp dir for the demo and stopped afterwards.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh dlock
DLOCK=./build/dlock

url="${DLOCK_REDIS_URL:-${REDIS_URL:-redis://127.0.0.1:6379}}"
if ! $DLOCK --redis "$url" -q run quickstart-probe -- true 2>/dev/null; then
    tmp=$(mktemp -d)
    redis-server --port 0 --unixsocket "$tmp/redis.sock" --unixsocketperm 700 --save '' \
        --appendonly no --dir "$tmp" --daemonize yes --pidfile "$tmp/redis.pid" \
        --logfile "$tmp/redis.log"
    trap 'kill "$(cat "$tmp/redis.pid")" 2>/dev/null; rm -rf "$tmp"' EXIT
    url="unix://$tmp/redis.sock"
    i=0
    until $DLOCK --redis "$url" -q run quickstart-probe -- true 2>/dev/null; do
        i=$((i + 1)); [ $i -lt 100 ] || { echo "redis-server did not start" >&2; exit 1; }
        sleep 0.05
    done
    echo "No Redis at ${DLOCK_REDIS_URL:-redis://127.0.0.1:6379}; started a private one at $url"
fi
export DLOCK_REDIS_URL="$url"

echo "Two hosts' cron fire 'dlock run nightly-job' at the same moment:"
for host in host-a host-b; do
    (
        status=0
        $DLOCK run nightly-job -- ./scripts/example-backup.sh "$host" || status=$?
        echo "$host: dlock exited with $status"
    ) &
done
wait
