#!/bin/sh
# Checks the fish completion: syntax, a few completions, and that it offers every subcommand and
# long option that the binary's --help lists. Exit 77 (skipped) without fish.
# usage: fish_test.sh path/to/completions/dlock.fish path/to/dlock
set -u
completion=$1 binary=$2
command -v fish >/dev/null 2>&1 || { echo "fish is not installed: skipped"; exit 77; }
fish -n "$completion" || { echo "FAIL: fish -n $completion"; exit 1; }
failures=0

# What fish offers for the command line $1 (first column of `complete -C`), one per line.
offers() {
    fish --no-config -c 'source $argv[1]; complete -C $argv[2] | string replace -r "\t.*" ""' \
        "$completion" "$1"
}
# expect LINE WORD...: completing LINE offers every WORD.
expect() {
    line=$1
    shift
    got=$(offers "$line" | tr '\n' ' ')
    for word in "$@"; do
        case " $got" in
        *" $word "*) ;;
        *)
            echo "FAIL: '$line<TAB>' does not offer $word (offers: $got)"
            failures=$((failures + 1))
            ;;
        esac
    done
}

expect "dlock r" run release
expect "dlock --log-format " text json
expect "dlock -v --redis unix:///r.sock st" status
expect "dlock sem run --p" --permits
expect "dlock latch " create count-down wait status
expect "dlock pause nightly --for " forever
expect "dlock " pause resume

# Every subcommand and long option of every --help.
check_offers() { expect "$@"; }
# shellcheck source=help_walk.sh
. "$(dirname "$0")/help_walk.sh"
walk_help "$binary"
echo "checked every subcommand and long option of $binary --help"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
