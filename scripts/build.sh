#!/bin/sh
# Configure and build into ./build: `scripts/build.sh` builds everything (dlock and the test
# suites), `scripts/build.sh dlock` only the binary. Under CI (or with DLOCK_CHECKS=1), any
# compiler warning fails the build; ccache is used when installed.
set -eu
cd "$(dirname "$0")/.."
checks=${DLOCK_CHECKS:-${CI:+1}}
# Explicitly OFF otherwise: the build tree's cache must not keep a CI setting.
options="-DDLOCK_WERROR=OFF"
[ "${checks:-}" = 1 ] && options="-DDLOCK_WERROR=ON"
command -v ccache >/dev/null 2>&1 && options="$options -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
# shellcheck disable=SC2086
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLOCK_BUILD_TESTS=ON $options >/dev/null
if [ $# -eq 0 ]; then
    cmake --build build -j "$(nproc)"
else
    for target in "$@"; do
        cmake --build build -j "$(nproc)" --target "$target"
    done
fi
