# Sourced by the completion tests. walk_help BINARY walks `dlock [SUBCOMMAND...] --help` at every
# level and calls `check_offers LINE WORD...` (defined by the test) with the long options and
# the subcommands each help lists, LINE being what to complete ("dlock latch --", "dlock latch ").
# So a subcommand or option added to the binary is checked without changing the tests.

# The entry lines (not the continuations of wrapped descriptions) of the sections of the help
# text $1 whose title matches $2 ("Options" also matches the groups "TLS options", ...).
help_section() {
    printf '%s\n' "$1" | awk -v name="$2" '$0 == name ":" || $0 ~ (" " tolower(name) ":$") {
        on = 1; next } $0 == "" { on = 0 } on && /^  [^ ]/ { print }'
}

walk_help() {
    _walk_binary=$1
    shift
    if ! _walk_help=$("$_walk_binary" "$@" --help); then
        echo "FAIL: dlock $* --help"
        failures=$((failures + 1))
        return
    fi
    _walk_prefix="dlock${*:+ $*}"
    _walk_options=$(help_section "$_walk_help" Options | sed -n 's/^  \(-[^ ]*\).*/\1/p' |
        tr ',' '\n' | grep '^--')
    # shellcheck disable=SC2086
    check_offers "$_walk_prefix --" $_walk_options
    _walk_subs=$(help_section "$_walk_help" Subcommands | awk '{ print $1 }')
    # shellcheck disable=SC2086
    [ -z "$_walk_subs" ] || check_offers "$_walk_prefix " $_walk_subs
    for _walk_sub in $_walk_subs; do # the list is expanded before the recursion changes it
        walk_help "$_walk_binary" "$@" "$_walk_sub"
    done
}
