#!/bin/sh
# The link launcher of the static dlock (CMake's RULE_LAUNCH_LINK): runs the link command and
# drops glibc's three warnings about getaddrinfo, getpwuid and dlopen in a static binary, with
# the "in function" line before each. docs/internals.md ("Static glibc") says why they are safe.
# Every other line, and the command's exit status, pass through.
err=$(mktemp) || exit 1
status=0
"$@" 2>"$err" || status=$?
awk '
    /: in function / { held = $0; next }
    /warning: Using .(getaddrinfo|getpwuid|dlopen). in statically linked applications/ {
        held = ""; next
    }
    { if (held != "") print held; held = ""; print }
    END { if (held != "") print held }
' "$err" >&2
rm -f "$err"
exit "$status"
