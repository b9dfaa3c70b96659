#!/bin/sh
# Install everything dlock needs to build, test and benchmark on Debian 12.
# Idempotent: packages already present are skipped, so re-running costs one dpkg query.
set -eu

# libssl-dev: OpenSSL's headers only (dlock loads libssl.so.3 at run time, for TLS); openssl: the
# CLI that makes the TLS tests' certificates. python3-prometheus-client: the Prometheus parser
# that the `dlock metrics` tests read its output back with. python3-redis: redis-py, whose Lock
# the --compat setnx tests share a lock with (tests/e2e/compat_test.cpp).
PACKAGES="build-essential faketime cmake pkg-config libhiredis-dev libcli11-dev libspdlog-dev libfmt-dev \
catch2 libexpected-dev redis-server redis-tools hyperfine util-linux time procps clang-format \
groff-base libssl-dev openssl python3-prometheus-client python3-redis"
# CI also checks the .deb with lintian, the zsh and fish completions and the YAML of
# docs/examples (about 40 s more to install); elsewhere those checks run when the tools are
# there and are skipped otherwise.
if [ -n "${CI:-}" ]; then
    PACKAGES="$PACKAGES lintian zsh fish python3-yaml"
fi

# Node.js and npm, for the node-redisson and node-redlock clients of the --compat tests (below).
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done

if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

# The Debian package starts a system redis-server on 6379; dlock's tests never use it
# (they start their own on free ports), so it is left as the package configured it.

# The third-party lock clients the --compat tests run against, from npm, into tests/interop/
# (git-ignored): the versions pinned in tests/interop/package.json. Skipped when they are there.
interop="$(dirname "$0")/../tests/interop"
if ! (cd "$interop" && node -e '
    const want = require("./package.json").dependencies;
    for (const [name, version] of Object.entries(want))
        if (require(`./node_modules/${name}/package.json`).version !== version) process.exit(1);
' 2>/dev/null); then
    (cd "$interop" && npm install --no-audit --no-fund --no-package-lock --loglevel=error)
fi
