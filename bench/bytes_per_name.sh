#!/usr/bin/env bash
# What a used name costs in Redis: used_memory before and after one `dlock run NAME -- true` on
# each of N new names (default 300, after a warm-up that loads the scripts), divided by N; then
# the same with --ephemeral, and what `dlock forget` of the first set frees. Also the MEMORY
# USAGE of each key of one name. UNCOMPACTED=1: as before the history was compacted (RESTORE is
# renamed away on that server, so the compaction's RESTORE fails, quietly, and the stream keeps the
# node XADD allocated).
#   bench/bytes_per_name.sh [N]        or        DLOCK=path bench/bytes_per_name.sh [N]
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

names=${1:-300}
bench_build
if [[ -n ${UNCOMPACTED:-} ]]; then
    bench_start_redis --rename-command RESTORE restore-renamed-by-bench
else
    bench_start_redis
fi
url=unix://$REDIS_SOCK

used_memory() {
    redis-cli -s "$REDIS_SOCK" info memory | tr -d '\r' | sed -n 's/^used_memory://p'
}

# Runs `dlock run [OPTIONS] PREFIX-i -- true` for i in 1..N; prints the bytes per name.
per_name() {
    local prefix=$1 before after i
    shift
    before=$(used_memory)
    for ((i = 1; i <= names; i++)); do
        "$DLOCK" --redis "$url" run "$@" "$prefix-$i" -- true
    done
    after=$(used_memory)
    echo $(((after - before) / names))
}

# Warm-up: the scripts loaded into Redis's script cache are not a name's cost.
"$DLOCK" --redis "$url" run --ephemeral warm-up -- true
"$DLOCK" --redis "$url" run warm-up -- true
"$DLOCK" --redis "$url" forget warm-up >/dev/null
"$DLOCK" --redis "$url" run -w 1s --ephemeral warm-up -- true

echo "redis $(redis-server --version | sed 's/.* v=\([^ ]*\).*/\1/'), $names names"
echo "default:     $(per_name kept) B/name, $(redis-cli -s "$REDIS_SOCK" dbsize) keys"
for key in $(redis-cli -s "$REDIS_SOCK" --scan --pattern 'dlock:{kept-1}:*' | sort); do
    echo "  $key: $(redis-cli -s "$REDIS_SOCK" memory usage "$key" samples 0) B"
done
echo "--ephemeral: $(per_name gone --ephemeral) B/name, keys left: $(redis-cli -s "$REDIS_SOCK" --scan --pattern 'dlock:{gone-*' | wc -l)"
before=$(used_memory)
for ((i = 1; i <= names; i++)); do
    "$DLOCK" --redis "$url" forget "kept-$i" >/dev/null
done
echo "forget:      $(((before - $(used_memory)) / names)) B/name freed, $(redis-cli -s "$REDIS_SOCK" dbsize) keys left"
