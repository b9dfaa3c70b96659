#!/bin/sh
# The unit and integration tests under AddressSanitizer + UndefinedBehaviorSanitizer, and the
# watchdog and lease tests (the threaded code) under ThreadSanitizer, each in a build tree of its
# own (build-asan/, build-tsan/). -O1 without debug info keeps the extra builds short. Not with
# -Werror: GCC warns falsely (maybe-uninitialized) in instrumented library code.
# usage: scripts/sanitize.sh [asan|tsan]...   (default: both)
set -eu
cd "$(dirname "$0")/.."
launcher=""
command -v ccache >/dev/null 2>&1 && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"

build() { # DIR SANITIZERS TARGET...
    dir=$1 sanitizers=$2
    shift 2
    # shellcheck disable=SC2086
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Sanitize "-DCMAKE_CXX_FLAGS_SANITIZE=-O1 -g0" \
        -DDLOCK_SANITIZE="$sanitizers" -DDLOCK_WERROR=OFF $launcher >/dev/null
    for target in "$@"; do
        cmake --build "$dir" -j "$(nproc)" --target "$target"
    done
}

[ $# -gt 0 ] || set -- asan tsan
for which in "$@"; do
    case $which in
    asan)
        build build-asan address,undefined unit_tests integration_tests
        # The parser fuzz test runs 20,000 command lines; a tenth is enough instrumented.
        (cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
            DLOCK_FUZZ_ITERATIONS=2000 \
            ctest --output-on-failure -j "$(nproc)" -R '^(unit|integration):')
        ;;
    tsan)
        # The tests of the code that runs threads, chosen by their Catch tags (tests/CMakeLists.txt
        # builds only the files that have such tests, and writes the filter).
        build build-tsan thread threaded_tests
        (cd build-tsan/tests && export TSAN_OPTIONS=halt_on_error=1 &&
            ./threaded_tests "$(cat threaded_tests.filter)")
        ;;
    *)
        echo "usage: scripts/sanitize.sh [asan|tsan]..." >&2
        exit 64
        ;;
    esac
done
