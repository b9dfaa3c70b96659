#!/bin/sh
# Fails when a function in src/ (or in the files and folders given) is longer than 60 lines,
# counted from the line of its name to its closing brace; prints `file:line name (N lines)` for
# each. Member functions defined in class bodies count as functions; a lambda counts as part of
# the function it is written in.
#
# It reads the code as clang-format leaves it (.clang-format: braces attached), matching braces
# outside comments, string, character and raw string literals and preprocessor lines: at
# namespace or class scope, a `{` after a parameter list (and its qualifiers, trailing return
# type or constructor initialisers) opens a function body. Other braces there are class bodies,
# namespaces or initialisers.
set -eu
max=60
if [ $# -eq 0 ]; then
    cd "$(dirname "$0")/.."
    set -- src
fi
files=$(find "$@" -type f \( -name '*.cpp' -o -name '*.hpp' \) | sort)
[ -n "$files" ] || {
    echo "check-function-length: no .cpp or .hpp files in: $*" >&2
    exit 2
}
# shellcheck disable=SC2086
awk -v max="$max" '
function reset_header() { header = ""; header_line = 0 }
function add_header(s) {
    if (header_line == 0 && s !~ /^[ \t\n]*$/)
        header_line = FNR
    if (header_line != 0)
        header = header s
}
# The header with its line breaks (\n) made spaces and runs of blanks folded.
function flat(s) {
    gsub(/[\n\t]/, " ", s)
    gsub(/  +/, " ", s)
    sub(/^ /, "", s)
    sub(/ $/, "", s)
    return s
}
# Leading `template <...>`, attributes and access labels, which say nothing about the kind of
# block that follows.
function strip_prefix(s,    depth, i, c) {
    for (;;) {
        if (s ~ /^(public|private|protected) ?:[^:]/) {
            sub(/^(public|private|protected) ?: ?/, "", s)
        } else if (s ~ /^\[\[/) {
            i = index(s, "]]")
            if (i == 0)
                return s
            s = substr(s, i + 2)
            sub(/^ /, "", s)
        } else if (s ~ /^template ?</) {
            depth = 0
            for (i = index(s, "<"); i <= length(s); i++) {
                c = substr(s, i, 1)
                if (c == "<")
                    depth++
                else if (c == ">" && --depth == 0)
                    break
            }
            s = substr(s, i + 1)
            sub(/^ /, "", s)
        } else {
            return s
        }
    }
}
# What a `{` at namespace or class scope opens, given the header before it: "scope" (namespace,
# class body, extern block), "func" (a function body) or "data" (an initialiser, enum body).
function kind(s,    tail, last) {
    s = strip_prefix(flat(s))
    if (s ~ /^(inline )?namespace([^A-Za-z0-9_]|$)/ || s ~ /^extern ""$/)
        return "scope"
    # A class body, unless the class is the return type of a function: `struct X f() {`.
    if (s ~ /^(class|struct|union)([^A-Za-z0-9_]|$)/ && s !~ /\)[ a-z]*$/)
        return "scope"
    if (s ~ /^enum([^A-Za-z0-9_]|$)/ || index(s, "(") == 0)
        return "data"
    last = substr(s, length(s), 1)
    if (last == ")" || last == "&")
        return "func"
    if (s ~ /(^|[^A-Za-z0-9_])(const|override|final|noexcept|mutable|try|volatile)$/)
        return "func"
    # A trailing return type after the parameter list.
    tail = s
    while (match(tail, /\)/))
        tail = substr(tail, RSTART + 1)
    if (tail ~ /^ ?(const |noexcept |mutable )*-> ?/)
        return "func"
    # The last member initialiser of a constructor was braced: `: a_(x), b_{y} {`.
    if (last == "}" && s ~ /\) ?:[^:]/)
        return "func"
    return "data"
}
# The name a function header declares: the (qualified) name before its parameter list.
function name_of(s,    i, pre, op) {
    s = strip_prefix(flat(s))
    if (match(s, /[A-Za-z_][A-Za-z0-9_]* ?= ?\[/)) {
        pre = substr(s, RSTART, RLENGTH)
        sub(/ ?= ?\[$/, "", pre)
        return pre " (lambda)"
    }
    i = index(s, "operator")
    if (i > 0 && substr(s, i + 8, 1) !~ /[A-Za-z0-9_]/) {
        op = substr(s, i)
        if (op ~ /^operator ?\(\)/)
            op = "operator()"
        else
            op = substr(op, 1, index(op, "(") - 1)
        pre = substr(s, 1, i - 1)
        match(pre, /[A-Za-z0-9_:~]*$/)
        return substr(pre, RSTART, RLENGTH) op
    }
    pre = substr(s, 1, index(s, "(") - 1)
    sub(/ $/, "", pre)
    match(pre, /[A-Za-z_~][A-Za-z0-9_:~<>]*$/)
    return RLENGTH > 0 ? substr(pre, RSTART, RLENGTH) : "?"
}
# The line of the name in the header: header_line plus the line breaks before it.
function name_line(s, name,    i, prefix, n) {
    i = index(s, name "(")
    if (i == 0)
        i = index(s, name " (")
    if (i == 0)
        i = index(s, name)
    if (i == 0)
        return header_line
    prefix = substr(s, 1, i - 1)
    n = gsub(/\n/, "", prefix)
    return header_line + n
}
# A file whose braces do not balance was misread (a brace in an #if branch, an unusual
# literal): said, and the check fails, rather than lengths that mean nothing.
function check_end() {
    if (depth != 0 || in_comment || in_raw) {
        printf "%s: braces do not balance (depth %d at the end); cannot measure its functions\n",
               last_file, depth
        found = 1
    }
}
FNR == 1 {
    if (NR > 1)
        check_end()
    last_file = FILENAME
    depth = 0
    in_comment = 0
    in_raw = 0
    continued = 0
    func_at = 0
    reset_header()
}
{
    line = $0
    # Preprocessor lines, with their continuations, are left out.
    if (continued || (!in_comment && !in_raw && line ~ /^[ \t]*#/)) {
        continued = (line ~ /\\$/)
        next
    }
    n = length(line)
    in_number = 0
    out = ""
    for (i = 1; i <= n; i++) {
        c = substr(line, i, 1)
        if (in_comment) {
            if (c == "*" && substr(line, i + 1, 1) == "/") {
                in_comment = 0
                i++
            }
            continue
        }
        if (in_raw) {
            if (substr(line, i, length(raw_end)) == raw_end) {
                in_raw = 0
                i += length(raw_end) - 1
                out = out "\"\""
            }
            continue
        }
        if (c == "/" && substr(line, i + 1, 1) == "/")
            break
        if (c == "/" && substr(line, i + 1, 1) == "*") {
            in_comment = 1
            i++
            continue
        }
        if (c ~ /[0-9]/ && (i == 1 || substr(line, i - 1, 1) !~ /[A-Za-z0-9_]/))
            in_number = 1
        else if (c !~ /[A-Za-z0-9_.'\'']/)
            in_number = 0
        if (c == "\"") {
            if (substr(line, i - 1, 1) == "R" && substr(line, i - 2, 1) !~ /[A-Za-z0-9_]/) {
                j = index(substr(line, i + 1), "(")
                raw_end = ")" substr(line, i + 1, j - 1) "\""
                in_raw = 1
                i += j
                continue
            }
            for (i++; i <= n; i++) {
                c = substr(line, i, 1)
                if (c == "\\")
                    i++
                else if (c == "\"")
                    break
            }
            out = out "\"\""
            continue
        }
        if (c == "\047" && !in_number) {
            for (i++; i <= n; i++) {
                c = substr(line, i, 1)
                if (c == "\\")
                    i++
                else if (c == "\047")
                    break
            }
            out = out "\047\047"
            continue
        }
        if (c == "{") {
            depth++
            if (func_at) {
                type[depth] = "inner"
            } else if (depth > 1 && type[depth - 1] == "data") {
                type[depth] = "data"
            } else {
                add_header(out)
                out = ""
                type[depth] = kind(header)
                if (type[depth] == "func") {
                    func_at = depth
                    func_name = name_of(header)
                    func_line = name_line(header, func_name)
                    reset_header()
                } else if (type[depth] == "scope") {
                    reset_header()
                }
            }
            continue
        }
        if (c == "}") {
            if (depth == 0)
                continue
            if (depth == func_at) {
                len = FNR - func_line + 1
                if (len > max) {
                    printf "%s:%d %s (%d lines)\n", FILENAME, func_line, func_name, len
                    found = 1
                }
                func_at = 0
                reset_header()
                out = ""
            } else if (!func_at && type[depth] == "data" &&
                       (depth == 1 || type[depth - 1] != "data")) {
                # Back in the header of the declaration the initialiser belongs to.
                out = out "{}"
            } else if (!func_at && type[depth] == "scope") {
                reset_header()
                out = ""
            }
            depth--
            continue
        }
        if (func_at || (depth > 0 && type[depth] == "data"))
            continue
        if (c == ";") {
            reset_header()
            out = ""
            continue
        }
        out = out c
    }
    if (!func_at && (depth == 0 || type[depth] != "data"))
        add_header(out "\n")
}
END {
    if (NR > 0)
        check_end()
    exit found ? 1 : 0
}
' $files && exit 0
echo "check-function-length: split the functions above (at most $max lines each)" >&2
exit 1
