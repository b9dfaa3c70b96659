#!/bin/sh
# Build the Debian package: a Release build of dlock alone (no tests) in build-package/, then
# `cpack -G DEB`. Prints the path of the .deb (build-package/dlock_<version>_<arch>.deb).
# Check it with scripts/check-package.sh; install it with `apt install ./build-package/dlock_*.deb`.
# usage: scripts/package.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
dir=${1:-build-package}

# Debian's hardening flags (stack protector, fortify, relro), as a Debian build would use them;
# without -g, since the binary is stripped anyway.
if command -v dpkg-buildflags >/dev/null 2>&1; then
    CXXFLAGS="$(dpkg-buildflags --get CXXFLAGS | sed 's/\(^\| \)-g\( \|$\)/ /') $(dpkg-buildflags --get CPPFLAGS)"
    LDFLAGS=$(dpkg-buildflags --get LDFLAGS)
    export CXXFLAGS LDFLAGS
fi
launcher=""
command -v ccache >/dev/null 2>&1 && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"

# -O2 as Debian builds its packages (GCC 12 also gives false -Wrestrict warnings at -O3).
# shellcheck disable=SC2086
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
    -DDLOCK_BUILD_TESTS=OFF $launcher >/dev/null
cmake --build "$dir" -j "$(nproc)" >/dev/null
rm -f "$dir"/dlock_*.deb
(cd "$dir" && cpack -G DEB >cpack.log 2>&1) || { cat "$dir/cpack.log" >&2; exit 1; }
ls "$dir"/dlock_*.deb
