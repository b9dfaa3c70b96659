#!/bin/sh
# Configure and build into ./build: `scripts/build.sh` builds everything (dlock and the test
# suites), `scripts/build.sh dlock` only the binary.
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLOCK_BUILD_TESTS=ON >/dev/null
if [ $# -eq 0 ]; then
    cmake --build build -j "$(nproc)"
else
    for target in "$@"; do
        cmake --build build -j "$(nproc)" --target "$target"
    done
fi
