#!/bin/sh
# Check a dlock .deb: its files, its control fields, that the packaged binary runs and its man
# page formats cleanly, and lintian (when installed). Exits non-zero on the first problem class
# found, after listing every problem of it.
# usage: scripts/check-package.sh [build-package/dlock_<version>_<arch>.deb]
set -eu
cd "$(dirname "$0")/.."
deb=${1:-$(ls build-package/dlock_*.deb)}
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
version=$(sed -n 's/^project(dlock VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)

# Files.
contents=$(dpkg-deb -c "$deb" | awk '{ print $NF }')
for path in ./usr/bin/dlock ./usr/libexec/dlock/dlock-dynamic ./usr/share/man/man1/dlock.1.gz \
    ./usr/share/bash-completion/completions/dlock ./usr/share/zsh/vendor-completions/_dlock \
    ./usr/share/fish/vendor_completions.d/dlock.fish ./usr/share/doc/dlock/copyright \
    ./usr/share/doc/dlock/changelog.gz ./usr/share/doc/dlock/dlock.conf.example \
    ./usr/share/doc/dlock/README.md ./usr/share/doc/dlock/docs/reference.md \
    ./usr/share/doc/dlock/docs/examples/crontab; do
    printf '%s\n' "$contents" | grep -qx "$path" || fail "$deb lacks $path"
done
printf '%s\n' "$contents" | grep -v '^\./usr/' | grep -qv '^\./$' && fail "files outside /usr"

# Control fields.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = dlock ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', CMakeLists.txt says $version"
[ "$(field Section)" = utils ] || fail "Section is '$(field Section)'"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Description)" ] || fail "no Description"
depends=$(field Depends)
# Everything but libc is linked in: a dependency on hiredis, libstdc++, fmt or spdlog means the
# static linking broke.
printf '%s\n' "$depends" | grep -q '^libc6 (>= [0-9.]*)$' || fail "Depends is '$depends', expected only libc6"
# OpenSSL is loaded with dlopen for TLS only: recommended, invisible to dpkg-shlibdeps.
[ "$(field Recommends)" = libssl3 ] || fail "Recommends is '$(field Recommends)', expected libssl3"
# bash-completion loads the bash completion installed under /usr/share/bash-completion.
printf '%s\n' "$(field Suggests)" | grep -q '\(^\|, \)bash-completion\(,\|$\)' ||
    fail "Suggests is '$(field Suggests)', expected bash-completion among them"

# The packaged files work.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp"
sibling=$tmp/usr/libexec/dlock/dlock-dynamic
for binary in "$tmp/usr/bin/dlock" "$sibling"; do
    [ "$("$binary" --version)" = "dlock $version" ] || fail "the packaged $binary --version"
    if readelf -S "$binary" | grep -q '\.debug_info\|\.symtab'; then
        fail "the packaged $binary is not stripped"
    fi
done
# /usr/bin/dlock is the static build (no program interpreter) and finds its sibling where the
# package puts it: a TLS URL is handed over (and then fails to connect to port 1, which is
# fine: it got that far).
readelf -l "$tmp/usr/bin/dlock" | grep -q 'INTERP' && fail "the packaged dlock is not static"
readelf -l "$sibling" | grep -q 'INTERP' || fail "the packaged dlock-dynamic is not dynamic"
handover=$(DLOCK_CONFIG=/dev/null DLOCK_SYSTEM_CONFIG=/dev/null "$tmp/usr/bin/dlock" -vv \
    --connect-timeout 1s --redis rediss://127.0.0.1:1 run k -- true 2>&1 || true)
printf '%s\n' "$handover" | grep -q "handing over to $sibling" ||
    fail "the packaged dlock does not hand TLS over to $sibling: $handover"
if command -v groff >/dev/null 2>&1; then
    warnings=$(zcat "$tmp/usr/share/man/man1/dlock.1.gz" | groff -man -Tutf8 -ww -z 2>&1)
    [ -z "$warnings" ] || fail "groff warnings in the packaged man page: $warnings"
fi
bash -n "$tmp/usr/share/bash-completion/completions/dlock" || fail "bash completion syntax"

# Lintian, when installed: no errors or warnings (its informational notes are printed only).
if command -v lintian >/dev/null 2>&1; then
    if ! report=$(lintian --fail-on error,warning "$deb" 2>&1); then
        fail "lintian"
    fi
    printf '%s\n' "$report" | grep -v -e 'running with root privileges' -e '^$' || true
else
    echo "lintian is not installed: skipped"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures problem(s) with $deb" >&2
    exit 1
fi
echo "ok: $deb ($(field Depends); $(dpkg-deb -f "$deb" Installed-Size) KiB installed)"
