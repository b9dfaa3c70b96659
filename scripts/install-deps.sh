#!/bin/sh
# Install everything dlock needs to build, test and benchmark on Debian 12.
# Idempotent: packages already present are skipped, so re-running costs one dpkg query.
set -eu

# libssl-dev: OpenSSL's headers only (dlock loads libssl.so.3 at run time, for TLS); openssl: the
# CLI that makes the TLS tests' certificates. python3-prometheus-client: the Prometheus parser
# that the `dlock metrics` tests read its output back with.
PACKAGES="build-essential faketime cmake pkg-config libhiredis-dev libcli11-dev libspdlog-dev libfmt-dev \
catch2 libexpected-dev redis-server redis-tools hyperfine util-linux time procps clang-format \
groff-base libssl-dev openssl python3-prometheus-client"
# CI also checks the .deb with lintian, the zsh and fish completions and the YAML of
# docs/examples (about 40 s more to install); elsewhere those checks run when the tools are
# there and are skipped otherwise.
if [ -n "${CI:-}" ]; then
    PACKAGES="$PACKAGES lintian zsh fish python3-yaml"
fi

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
