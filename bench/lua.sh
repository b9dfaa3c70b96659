#!/usr/bin/env bash
# Redis-side cost of dlock's uncontended lock scripts next to a minimal SET NX / compare-and-delete
# lock, and `dlock bench`'s uncontended cycles/s ratio.
#
# Part 1, scripts: N names, each warmed by one acquire+release (so its fencing counter and history
# exist, as for a name in use), then one phase per script: acquire every name, renew every name,
# release every name (the calls `dlock run NAME -- true` makes, see
# src/redis/stores/lock_backend.cpp); the same for the minimal lock's two scripts on N keys. Each
# phase is sent by redis-cli one command at a time after CONFIG RESETSTAT, so INFO commandstats
# gives the script's usec_per_call alone and the commands it ran inside (their calls / N). ROUNDS
# rounds, medians. The scripts are the composed ones of the build (LUA_DIR, default: lua/ next to
# the dlock binary).
# Part 1b (INSTR=1, default when valgrind is installed): the same phases (INSTR_N names, one round)
# against a second redis-server run under callgrind: instructions per script call (inclusive cost
# of evalShaCommand / calls), which unlike the times do not depend on the machine's load.
# Part 3 (RUNS=0: skipped): RUNS real `dlock run NAME -- true`: scripts per run, their
# usec_per_call, and the commands run inside them per run.
# Part 2: `dlock bench` uncontended cycles/s vs the minimal lock in the same run, ROUNDS rounds,
# median of the ratios (CYCLES=0: skipped).
#
#   bench/lua.sh  # N=2000 ROUNDS=5 CYCLES=2000 INSTR_N=200 RUNS=200 [DLOCK=path LUA_DIR=dir TCP=1]
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

N=${N:-2000}
ROUNDS=${ROUNDS:-5}
CYCLES=${CYCLES:-2000}
INSTR_N=${INSTR_N:-200}
RUNS=${RUNS:-200}
if [[ -z ${INSTR:-} ]]; then
    INSTR=0
    command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null && INSTR=1
fi
SCRIPTS=(acquire renew release min_acquire min_release)

bench_build
LUA_DIR=${LUA_DIR:-$(dirname "$DLOCK")/lua}
[[ -f $LUA_DIR/acquire.lua ]] || LUA_DIR=$BENCH_ROOT/build-bench/lua
[[ -f $LUA_DIR/acquire.lua ]] || die "no composed scripts in $LUA_DIR (set LUA_DIR)"
bench_start_redis
SOCK=$REDIS_SOCK # the server the phases talk to
rcli() { redis-cli -s "$SOCK" "$@"; }
HOST=$(hostname)
MIN_ACQUIRE_LUA="if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 30000) then return 1 end return 0"
MIN_RELEASE_LUA="if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"

load_scripts() {
    ACQUIRE=$(rcli -x script load <"$LUA_DIR/acquire.lua")
    RELEASE=$(rcli -x script load <"$LUA_DIR/release.lua")
    RENEW=$(rcli -x script load <"$LUA_DIR/renew.lua")
    MIN_ACQUIRE=$(rcli script load "$MIN_ACQUIRE_LUA")
    MIN_RELEASE=$(rcli script load "$MIN_RELEASE_LUA")
}

# The calls of `dlock run` for name I in round R: acquire_cmd I R...
acquire_cmd() {
    local b="dlock:{lua-$1}:"
    echo "EVALSHA $ACQUIRE 11 ${b}lock ${b}fence ${b}queue ${b}alive ${b}wake: ${b}readers" \
        "${b}rinfo ${b}xqueue ${b}history ${b}runs ${b}winfo" \
        "owner$1-$2 hold$1-$2 30000 \"\" 3000 $HOST $$ bench true x"
}
renew_cmd() {
    local b="dlock:{lua-$1}:"
    echo "EVALSHA $RENEW 3 ${b}lock ${b}readers ${b}rinfo owner$1-$2 30000 x hold$1-$2"
}
release_cmd() {
    local b="dlock:{lua-$1}:"
    echo "EVALSHA $RELEASE 11 ${b}lock ${b}queue ${b}alive ${b}wake: ${b}readers ${b}rinfo" \
        "${b}xqueue ${b}history ${b}winfo ${b}fence ${b}runs owner$1-$2 hold$1-$2 3000 x 0 0 1 ok"
}
min_acquire_cmd() { echo "EVALSHA $MIN_ACQUIRE 1 minimal:$1 token$1-$2"; }
min_release_cmd() { echo "EVALSHA $MIN_RELEASE 1 minimal:$1 token$1-$2"; }

# send SCRIPT ROUND COUNT: sends SCRIPT's call for names 0..COUNT-1, one at a time; fails unless
# every call succeeded (1, or {1, ...}).
send() {
    local gen=${1}_cmd round=$2 count=$3 i
    for ((i = 0; i < count; i++)); do "$gen" "$i" "$round"; done >"$BENCH_TMP/cmds"
    rcli <"$BENCH_TMP/cmds" >"$BENCH_TMP/replies"
    if grep -qv '^1$\|^[0-9][0-9]*$\|^x$\|^$' "$BENCH_TMP/replies" ||
        [[ $(grep -c '^1$' "$BENCH_TMP/replies") -lt $count ]]; then
        head -5 "$BENCH_TMP/replies" >&2
        die "$1: a call did not succeed"
    fi
}

warm() {
    send acquire w "$1"
    send release w "$1"
}

# phase SCRIPT ROUND: prints "usec_per_call nested_calls_per_call nested calls by command".
phase() {
    rcli config resetstat >/dev/null
    send "$1" "$2" "$N"
    rcli info commandstats | tr -d '\r' | awk -F '[:,=]' -v n="$N" '
        /^cmdstat_/ { name = substr($1, 9)
            if (name == "evalsha") usec = $7
            else if (name !~ /^(config|info|command)/) { nested += $3; parts = parts " " name "=" $3 / n } }
        END { printf "%.2f %.2f%s\n", usec, nested / n, parts }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load before: $(cat /proc/loadavg)"
echo "dlock: $DLOCK  scripts: $LUA_DIR  N=$N ROUNDS=$ROUNDS"
load_scripts
warm "$N"
: >"$BENCH_TMP/phases"
for ((r = 0; r < ROUNDS; r++)); do
    for s in "${SCRIPTS[@]}"; do
        echo "$s $(phase "$s" "$r")" >>"$BENCH_TMP/phases"
    done
done

# Part 1b: a private redis-server under callgrind; each phase between a zero and a dump.
declare -A INSTRS
if ((INSTR)); then
    SOCK=$BENCH_TMP/callgrind.sock
    valgrind --tool=callgrind --callgrind-out-file="$BENCH_TMP/cg.%p" redis-server --port 0 \
        --unixsocket "$SOCK" --save '' --appendonly no --dir "$BENCH_TMP" \
        --logfile "$BENCH_TMP/callgrind-redis.log" 2>"$BENCH_TMP/valgrind.log" &
    CG_PID=$!
    BENCH_PIDS+=("$CG_PID")
    for _ in {1..100}; do rcli ping >/dev/null 2>&1 && break; sleep 0.2; done
    load_scripts
    warm "$INSTR_N"
    for s in "${SCRIPTS[@]}"; do
        callgrind_control -z "$CG_PID" >/dev/null 2>&1
        send "$s" i "$INSTR_N"
        rm -f "$BENCH_TMP/cg.$CG_PID".*
        callgrind_control -d "$CG_PID" >/dev/null 2>&1
        for _ in {1..50}; do
            compgen -G "$BENCH_TMP/cg.$CG_PID.*" >/dev/null && break
            sleep 0.1
        done
        sleep 0.2 # the dump is written in one go; let it finish
        INSTRS[$s]=$(callgrind_annotate --inclusive=yes "$BENCH_TMP/cg.$CG_PID".* 2>/dev/null |
            awk -v n="$INSTR_N" '/:evalShaCommand / && !done { gsub(",", "", $1); printf "%.0f", $1 / n; done = 1 }')
    done
fi

echo
declare -A U
printf '%-12s %14s %14s %13s  %s\n' script usec_per_call instr_per_call nested_calls \
    "nested calls by command"
for s in "${SCRIPTS[@]}"; do
    U[$s]=$(awk -v s="$s" '$1 == s { print $2 }' "$BENCH_TMP/phases" | median)
    line=$(awk -v s="$s" '$1 == s' "$BENCH_TMP/phases" | tail -1)
    printf '%-12s %14s %14s %13s  %s\n' "$s" "${U[$s]}" "${INSTRS[$s]:--}" \
        "$(awk '{ print $3 }' <<<"$line")" "$(cut -d' ' -f4- <<<"$line")"
done
ratios() { # A R MA MR UNIT
    awk -v a="$1" -v r="$2" -v ma="$3" -v mr="$4" -v unit="$5" 'BEGIN {
        printf "%s: acquire / minimal acquire %.2f, release / minimal release %.2f, ", unit, a / ma, r / mr
        printf "acquire+release / minimal pair %.2f (%.1f vs %.1f)\n", (a + r) / (ma + mr), a + r, ma + mr }'
}
echo
ratios "${U[acquire]}" "${U[release]}" "${U[min_acquire]}" "${U[min_release]}" usec
if ((INSTR)); then
    ratios "${INSTRS[acquire]}" "${INSTRS[release]}" "${INSTRS[min_acquire]}" \
        "${INSTRS[min_release]}" instructions
fi

# Part 3: real runs. RUNS x `dlock run NAME -- true`, then RUNS x the minimal lock as a shell
# would run it (redis-cli EVALSHA SET NX, then redis-cli EVALSHA compare-and-delete): each call
# comes from a new process, so Redis runs it with cold caches as in production.
# stats_per RUNS LABEL: prints the scripts' calls and usec_per_call per run since CONFIG RESETSTAT,
# and the commands run inside them; appends usec_per_call to $BENCH_TMP/real.
stats_per() {
    rcli info commandstats | tr -d '\r' | awk -F '[:,=]' -v n="$1" -v label="$2" \
        -v out="$BENCH_TMP/real" '
        /^cmdstat_/ { name = substr($1, 9)
            if (name ~ /^eval/) { scripts += $3; usec += $5 }
            else if (name !~ /^(config|info|command|hello|client|ping|role|script)/) {
                nested += $3; parts = parts " " name "=" $3 / n } }
        END { printf "%s x %d: %.2f scripts each, %.2f usec_per_call, %.2f commands inside each:%s\n",
                     label, n, scripts / n, usec / scripts, nested / n, parts
              print usec / scripts >> out }'
}
if ((RUNS > 0)); then
    SOCK=$REDIS_SOCK
    echo
    : >"$BENCH_TMP/real"
    rcli config resetstat >/dev/null
    for ((i = 0; i < RUNS; i++)); do
        "$DLOCK" --redis "unix://$REDIS_SOCK" run lua-bench-run -- true
    done
    stats_per "$RUNS" "dlock run NAME -- true"
    rcli config resetstat >/dev/null
    for ((i = 0; i < RUNS; i++)); do
        rcli evalsha "$MIN_ACQUIRE" 1 minimal-run "token$i" >/dev/null
        rcli evalsha "$MIN_RELEASE" 1 minimal-run "token$i" >/dev/null
    done
    stats_per "$RUNS" "redis-cli SET NX + compare-and-delete"
    awk 'NR == 1 { d = $1 } NR == 2 { printf "real runs, usec_per_call dlock / minimal: %.2f\n", d / $1 }' \
        "$BENCH_TMP/real"
fi

echo
if ((CYCLES > 0)); then
    if [[ -n ${TCP:-} ]]; then
        REDIS_URL=redis://127.0.0.1:$REDIS_PORT
    else
        REDIS_URL=unix://$REDIS_SOCK
    fi
    : >"$BENCH_TMP/ratios"
    for ((r = 0; r < ROUNDS; r++)); do
        "$DLOCK" --redis "$REDIS_URL" bench --cycles "$CYCLES" -k 1 --handovers 1 --json \
            >"$BENCH_TMP/bench.json"
        jq -r '.uncontended | "\(.cycles_per_s) \(.minimal_cycles_per_s) \(.ratio)"' \
            "$BENCH_TMP/bench.json" | tee -a "$BENCH_TMP/ratios" |
            awk '{ printf "dlock bench round: %.0f vs %.0f cycles/s, ratio %.3f\n", $1, $2, $3 }'
    done
    echo "dlock bench uncontended ratio ($REDIS_URL), median of $ROUNDS:" \
        "$(awk '{ print $3 }' "$BENCH_TMP/ratios" | median)"
fi
echo "load after: $(cat /proc/loadavg)"
