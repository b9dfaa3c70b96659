#!/bin/sh
# The whole test suite: install dependencies, build, run unit, integration and end-to-end
# tests with ctest. Redis tests start their own redis-server; under CI=1 they may not skip.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)" "$@"
