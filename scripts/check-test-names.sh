#!/bin/sh
# ctest runs each Catch test case by its name, and Catch reads a name that starts with "-" as
# an option: that test would run something else, or nothing, and fail only under ctest. A ';'
# ends the name in CMake's list of discovered tests: ctest would ask Catch for a name that
# matches no test case, and count the run as passed.
set -eu
cd "$(dirname "$0")/.."
bad=$(grep -rn 'TEST_CASE("-' tests || true)
if [ -n "$bad" ]; then
    echo "test names ctest cannot run (they start with '-'):" >&2
    echo "$bad" >&2
    exit 1
fi
bad=$(grep -rn 'TEST_CASE("[^"]*;' tests || true)
if [ -n "$bad" ]; then
    echo "test names ctest cannot run (a ';' cuts them short; write ',' instead):" >&2
    echo "$bad" >&2
    exit 1
fi
echo "test names: ctest can run every one"
