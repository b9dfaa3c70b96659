#!/bin/sh
# Every source path docs/ARCHITECTURE.md names in backquotes must exist: the "where each
# behaviour lives" table is only useful while it points at real files. A path is looked up as
# written, then under src/ (the table names src/ files relative to it).
set -eu
cd "$(dirname "$0")/.."
doc=docs/ARCHITECTURE.md
missing=""
for path in $(grep -o '`[^` ]*\.\(cpp\|hpp\|lua\|cmake\|sh\)\b' "$doc" | tr -d '`' | sort -u); do
    # shellcheck disable=SC2086 # a path may be a glob (lua/lib/*.lua)
    ls -d $path >/dev/null 2>&1 || ls -d src/$path >/dev/null 2>&1 || missing="$missing $path"
done
if [ -n "$missing" ]; then
    echo "$doc names paths that do not exist:$missing" >&2
    exit 1
fi
echo "$doc: every named path exists"
