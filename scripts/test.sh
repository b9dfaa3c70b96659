#!/bin/sh
# The whole test suite: install dependencies, build, run unit, integration and end-to-end
# tests with ctest, then build the .deb and check it. Redis tests start their own
# redis-server; under CI=1 they may not skip. Arguments go to ctest (scripts/test.sh -R config);
# with arguments the package is not built.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)" "$@")
if [ $# -eq 0 ]; then
    ./scripts/check-package.sh "$(./scripts/package.sh)"
fi
