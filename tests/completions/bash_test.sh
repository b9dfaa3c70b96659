#!/bin/bash
# Loads the bash completion and checks what it offers, as bash would call it on <TAB>; and that
# it offers every subcommand and long option that the binary's --help lists.
# usage: bash_test.sh path/to/completions/dlock.bash path/to/dlock
set -u
# shellcheck source=../../completions/dlock.bash
source "$1"
binary=$2
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A stand-in dlock for the name queries: records its arguments, prints names.
cat >"$tmp/dlock" <<'FAKE'
#!/bin/sh
echo "$*" >"$(dirname "$0")/args"
[ "$DLOCK_CONNECT_TIMEOUT" = 500ms ] || exit 1
[ "$DLOCK_REDIS_TIMEOUT" = 1s ] || exit 1
printf 'nightly-backup\nnightly-report\ndb:main\n'
FAKE
chmod +x "$tmp/dlock"

# expect LINE EXPECTED WORD... : with COMP_WORDS=(WORD...) (split as bash splits LINE, at spaces
# and at ':' and '='), the cursor at the end of LINE, _dlock must offer exactly EXPECTED
# (space-separated, any order).
expect() {
    local line=$1 expected=$2
    shift 2
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    _dlock
    local got
    got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
    expected=$(printf '%s\n' $expected | sort | tr '\n' ' ')
    if [ "$got" != "$expected" ]; then
        echo "FAIL: '$line<TAB>' offered [$got], expected [$expected]"
        failures=$((failures + 1))
    else
        echo "ok: '$line<TAB>' -> [$got]"
    fi
}

# Subcommands.
expect "dlock " "run acquire sem latch status history check release config bench metrics forget pause resume" dlock ""
expect "dlock r" "run release resume" dlock r
expect "dlock -v --prefix p --redis unix:///r.sock st" "status" \
    dlock -v --prefix p --redis unix : ///r.sock st
expect "dlock sem " "run status" dlock sem ""
expect "dlock latch c" "create count-down" dlock latch c

# Options, and their values.
expect "dlock --log-f" "--log-format" dlock --log-f
expect "dlock --log-format " "text json" dlock --log-format ""
expect "dlock run --w" "--wait" dlock run --w
expect "dlock run --ti" "--timeout" dlock run --ti
expect "dlock sem run --ti" "--timeout" dlock sem run --ti
expect "dlock --redis-t" "--redis-timeout" dlock --redis-t
expect "dlock --ti" "" dlock --ti
expect "dlock run --timeout " "" dlock run --timeout ""
expect "dlock run --ttl " "" dlock run --ttl ""
expect "dlock run --lost-signal K" "KILL" dlock run --lost-signal K
expect "dlock sem run --p" "--permits" dlock sem run --p
expect "dlock sem run --s" "" dlock sem run --s
expect "dlock sem run --m" "--max-run" dlock sem run --m  # not --min-hold: locks only
expect "dlock release --f" "--force" dlock release --f
expect "dlock release --force --p" "--permit" dlock release --force --p
expect "dlock release --force --permit " "" dlock release --force --permit ""
expect "dlock release --force --a" "--all-permits" dlock release --force --a
expect "dlock status --n" "--names" dlock status --n
expect "dlock history --co" "--compat --count" dlock history --co
expect "dlock latch wait --t" "--timeout-exit-code" dlock latch wait --t
expect "dlock bench --h" "--help --handovers" dlock bench --h
expect "dlock metrics --o" "--output" dlock metrics --o
expect "dlock pause --" "--help --for --until --reason" dlock pause --
expect "dlock pause nightly --for " "forever" dlock pause nightly --for ""
expect "dlock pause nightly --until " "" dlock pause nightly --until ""
expect "dlock resume --" "--help" dlock resume --

# Names from `dlock status --names`, asked with the same global options.
expect "$tmp/dlock --redis unix:///r.sock run nig" "nightly-backup nightly-report" \
    "$tmp/dlock" --redis unix : ///r.sock run nig
if [ "$(cat "$tmp/args")" != "--redis unix:///r.sock status --names" ]; then
    echo "FAIL: names were asked with [$(cat "$tmp/args")]"
    failures=$((failures + 1))
fi
expect "$tmp/dlock run -w 5s db:m" "main" "$tmp/dlock" run -w 5s db : m
expect "$tmp/dlock latch wait n" "nightly-backup nightly-report" "$tmp/dlock" latch wait n
expect "$tmp/dlock history nightly-backup " "" "$tmp/dlock" history nightly-backup ""
expect "$tmp/dlock config " "" "$tmp/dlock" config ""
expect "$tmp/dlock pause --reason x nig" "nightly-backup nightly-report" \
    "$tmp/dlock" pause --reason x nig
expect "$tmp/dlock resume nightly-backup nig" "nightly-backup nightly-report" \
    "$tmp/dlock" resume nightly-backup nig
expect "$tmp/dlock release --force --permit 0a1b n" "nightly-backup nightly-report" \
    "$tmp/dlock" release --force --permit 0a1b n

# After "--": the command.
expect "dlock run job -- tru" "true truncate" dlock run job -- tru

# Everything --help lists, at every level, is offered.
# check_offers LINE WORD...: completing LINE (split at spaces) offers every WORD.
check_offers() {
    local line=$1 word offered
    shift
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *' ' ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line}
    _dlock
    offered=" ${COMPREPLY[*]} "
    for word; do
        if [[ $offered != *" $word "* ]]; then
            echo "FAIL: '$line<TAB>' does not offer $word"
            failures=$((failures + 1))
        fi
    done
}
# shellcheck source=help_walk.sh
source "$(dirname "$0")/help_walk.sh"
walk_help "$binary"
echo "checked every subcommand and long option of $binary --help"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
