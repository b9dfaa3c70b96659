#!/bin/sh
# The lock a shell script writes with redis-cli alone, for bench/peers.sh and bench/seed.sh:
# SET NAME TOKEN NX PX TTL (retried every LOCK_RETRY seconds with -w, else exit 75 if held), run
# COMMAND, then delete NAME only if it still holds TOKEN (compare-and-delete in one EVAL).
# No renewal: a COMMAND outliving the TTL runs unlocked.
#   redis-cli-lock.sh [-w] NAME COMMAND [ARGS...]
#   env: REDIS_CLI_ARGS (e.g. "-p 6400"), LOCK_RETRY (default 0.1), LOCK_TTL_MS (default 30000)
set -u
wait=0
if [ "${1:-}" = -w ]; then
    wait=1
    shift
fi
name=$1
shift
read -r token </proc/sys/kernel/random/uuid
# shellcheck disable=SC2086 # REDIS_CLI_ARGS is a list of options
until [ "$(redis-cli ${REDIS_CLI_ARGS:-} SET "$name" "$token" NX PX "${LOCK_TTL_MS:-30000}")" = OK ]; do
    [ "$wait" = 1 ] || exit 75
    sleep "${LOCK_RETRY:-0.1}"
done
"$@"
status=$?
# shellcheck disable=SC2086
redis-cli ${REDIS_CLI_ARGS:-} EVAL \
    'if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0' \
    1 "$name" "$token" >/dev/null
exit "$status"
