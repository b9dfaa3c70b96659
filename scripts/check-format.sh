#!/bin/sh
# Fails when a C++ file differs from what clang-format (with the committed .clang-format) makes of
# it, naming the files; `clang-format -i FILE...` fixes them.
set -eu
cd "$(dirname "$0")/.."
if git rev-parse --git-dir >/dev/null 2>&1; then
    files=$(git ls-files '*.cpp' '*.hpp')
else
    files=$(find src tests bench -name '*.cpp' -o -name '*.hpp')
fi
bad=""
for f in $files; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad="$bad $f"
done
if [ -n "$bad" ]; then
    echo "clang-format would change:$bad" >&2
    echo "run: clang-format -i$bad" >&2
    exit 1
fi
echo "clang-format: $(echo "$files" | wc -w) files clean"
