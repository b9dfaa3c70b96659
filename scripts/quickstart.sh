#!/bin/sh
# Quick start: install, build, then start two copies of the same cron job at the same moment.
# One runs the job, the other skips it and says who holds the lock.
# Uses Redis at $DLOCK_REDIS_URL (default redis://127.0.0.1:6379); if none answers there, a
# private redis-server is started in a temp dir for the demo and stopped afterwards.
set -eu
cd "$(dirname "$0")/.."
# DLOCK names a dlock already built (the test suite runs the demo so); else it is built here.
if [ -z "${DLOCK:-}" ]; then
    ./scripts/install-deps.sh
    ./scripts/build.sh dlock
    DLOCK=./build/dlock
fi

url="${DLOCK_REDIS_URL:-${REDIS_URL:-redis://127.0.0.1:6379}}"
if ! probe=$($DLOCK --redis "$url" -q run quickstart-probe -- true 2>&1); then
    tmp=$(mktemp -d)
    trap 'kill "$(cat "$tmp/redis.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$tmp"' EXIT
    if ! redis-server --port 0 --unixsocket "$tmp/redis.sock" --unixsocketperm 700 --save '' \
        --appendonly no --dir "$tmp" --daemonize yes --pidfile "$tmp/redis.pid" \
        --logfile "$tmp/redis.log"; then
        echo "quickstart: redis-server could not be started: $(tail -n 3 "$tmp/redis.log" 2>/dev/null)" >&2
        exit 1
    fi
    # The private server has no password: the host's config files and password variables are
    # for the host's Redis, so the demo runs without them.
    export DLOCK_CONFIG=/dev/null DLOCK_SYSTEM_CONFIG=/dev/null
    unset DLOCK_REDIS_PASSWORD DLOCK_SENTINEL_PASSWORD
    private="unix://$tmp/redis.sock"
    i=0
    until error=$($DLOCK --redis "$private" -q run quickstart-probe -- true 2>&1); do
        i=$((i + 1))
        if [ $i -ge 100 ]; then
            echo "quickstart: the private redis-server did not answer: ${error:-no message}" >&2
            tail -n 3 "$tmp/redis.log" >&2 2>/dev/null || true
            exit 1
        fi
        sleep 0.05
    done
    echo "No usable Redis at $url (${probe#dlock: }); started a private one at $private"
    url=$private
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
