#!/bin/sh
# cmake/quiet_static_link.sh drops glibc's three understood static-link warnings (each with its
# "in function" line) and passes every other line and the exit status through.
# usage: quiet_static_link_test.sh PATH/TO/quiet_static_link.sh
set -u
launcher=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/link" <<'LINK'
#!/bin/sh
cat >&2 <<'OUT'
/usr/bin/ld: libdlock_core.a(socket.cpp.o): in function `connect_tcp':
socket.cpp:121: warning: Using 'getaddrinfo' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking
/usr/bin/ld: libdlock_core.a(user_name.cpp.o): in function `current_user_name':
user_name.cpp:86: warning: Using 'getpwuid' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking
/usr/bin/ld: libdlock_core.a(openssl_api.cpp.o): in function `openssl_api':
openssl_api.cpp:22: warning: Using 'dlopen' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking
/usr/bin/ld: libdlock_core.a(host.cpp.o): in function `host':
host.cpp:9: warning: Using 'gethostbyname' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking
/usr/bin/ld: some other warning
OUT
echo linked
exit 3
LINK
sh "$launcher" sh "$tmp/link" >"$tmp/out" 2>"$tmp/err"
status=$?
cat >"$tmp/want" <<'WANT'
/usr/bin/ld: libdlock_core.a(host.cpp.o): in function `host':
host.cpp:9: warning: Using 'gethostbyname' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking
/usr/bin/ld: some other warning
WANT
fail=0
[ "$status" = 3 ] || { echo "exit status $status, want 3"; fail=1; }
[ "$(cat "$tmp/out")" = linked ] || { echo "stdout: $(cat "$tmp/out")"; fail=1; }
diff -u "$tmp/want" "$tmp/err" || fail=1
exit $fail
