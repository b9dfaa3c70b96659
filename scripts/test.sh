#!/bin/sh
# The whole test suite: install dependencies, build, run unit, integration and end-to-end
# tests with ctest, then build the .deb and check it. Redis tests start their own
# redis-server; under CI=1 they may not skip. Arguments go to ctest (scripts/test.sh -R config);
# with arguments the package is not built.
# Under CI (or with DLOCK_CHECKS=1) it also checks the formatting and that no function in src/ is
# over 60 lines (scripts/check-function-length.sh), that docs/ARCHITECTURE.md names only files
# that exist (scripts/check-doc-paths.sh), that every relative link and #anchor in README.md and
# docs/ resolves (scripts/check-doc-links.sh), that ctest can run every test by its name
# (scripts/check-test-names.sh) and that every include in src/ goes downward, in the layer order
# of docs/ARCHITECTURE.md (scripts/check-include-layers.sh), builds with -Werror and runs the unit and
# integration tests under ASan+UBSan and the watchdog/lease tests under TSan (scripts/sanitize.sh).
set -eu
cd "$(dirname "$0")/.."
checks=${DLOCK_CHECKS:-${CI:+1}}
./scripts/install-deps.sh
[ "${checks:-}" = 1 ] && ./scripts/check-format.sh
[ "${checks:-}" = 1 ] && ./scripts/check-function-length.sh
[ "${checks:-}" = 1 ] && ./scripts/check-doc-paths.sh
[ "${checks:-}" = 1 ] && ./scripts/check-doc-links.sh
[ "${checks:-}" = 1 ] && ./scripts/check-test-names.sh
[ "${checks:-}" = 1 ] && ./scripts/check-include-layers.sh
./scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)" "$@")
if [ $# -eq 0 ]; then
    ./scripts/check-package.sh "$(./scripts/package.sh)"
    [ "${checks:-}" = 1 ] && ./scripts/sanitize.sh
fi
exit 0
