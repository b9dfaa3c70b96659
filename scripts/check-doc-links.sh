#!/bin/sh
# Every relative link in README.md and docs/**/*.md must lead somewhere: the file (or folder) it
# names exists, and its #anchor is a heading of the Markdown file it points at (or of the page
# itself, for a bare #anchor). The README was split into docs/ by topic, and links between the
# pieces are what breaks when a section is renamed or moved. Links to web sites are not checked.
#
# Anchors follow GitHub's rule: the heading's text, lower-cased, with everything but letters,
# digits, spaces, `-` and `_` removed and each space made a `-`; a repeated heading gets -1, -2...
# Headings and links inside fenced code blocks and `code spans` do not count.
# Usage: scripts/check-doc-links.sh [FILE.md...]   (default: README.md and docs/**/*.md)
set -eu
if [ $# -eq 0 ]; then
    cd "$(dirname "$0")/.."
    # shellcheck disable=SC2046 # the paths have no spaces
    set -- README.md $(find docs -name '*.md' | sort)
fi
awk '
function normalize(path,    n, parts, out, i, k, stack) {
    n = split(path, parts, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "" || parts[i] == ".")
            continue
        if (parts[i] == ".." && k > 0 && stack[k] != "..")
            k--
        else
            stack[++k] = parts[i]
    }
    out = path ~ /^\// ? "/" : ""
    for (i = 1; i <= k; i++)
        out = out (i > 1 ? "/" : "") stack[i]
    return out
}
function dir_of(path) { return path ~ /\// ? substr(path, 1, match(path, /\/[^\/]*$/) - 1) : "." }
function slug(text,    s) {
    s = tolower(text)
    gsub(/[^a-z0-9 _-]/, "", s)
    gsub(/ /, "-", s)
    return s
}
function without_code_spans(line) {
    gsub(/`[^`]*`/, "", line)
    return line
}
function is_fence(line) { return line ~ /^ *(```|~~~)/ }
FNR == 1 { fenced = 0 }
is_fence($0) { fenced = !fenced; next }
fenced { next }
pass == 1 && /^#+ / {
    text = $0
    sub(/^#+ +/, "", text)
    sub(/ +#* *$/, "", text)
    base = slug(text)
    file = normalize(FILENAME)
    anchor = base
    if ((file, base) in seen)
        anchor = base "-" seen[file, base]
    seen[file, base]++
    anchors[file, anchor] = 1
    next
}
pass == 2 {
    line = without_code_spans($0)
    while (match(line, /\]\([^)]*\)/)) {
        target = substr(line, RSTART + 2, RLENGTH - 3)
        line = substr(line, RSTART + RLENGTH)
        sub(/ +"[^"]*"$/, "", target) # a title: [text](path "title")
        if (target ~ /^[a-z]+:/)
            continue
        path = target
        anchor = ""
        if (index(target, "#") > 0) {
            path = substr(target, 1, index(target, "#") - 1)
            anchor = substr(target, index(target, "#") + 1)
        }
        file = path == "" ? normalize(FILENAME) : normalize(dir_of(FILENAME) "/" path)
        if (path != "" && system("test -e \"" file "\"") != 0) {
            printf "%s:%d: %s: no such file %s\n", FILENAME, FNR, target, file
            broken++
        } else if (anchor != "" && file ~ /\.md$/ && !((file, anchor) in anchors)) {
            printf "%s:%d: %s: no heading #%s in %s\n", FILENAME, FNR, target, anchor, file
            broken++
        }
        links++
    }
}
END {
    if (broken > 0) {
        printf "%d broken link(s)\n", broken
        exit 1
    }
    printf "%d relative links and anchors resolve\n", links
}
' pass=1 "$@" pass=2 "$@"
