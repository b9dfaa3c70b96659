#!/bin/sh
# Configure and build dlock (and its tests) into ./build. Extra arguments go to cmake.
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build -j "$(nproc)"
