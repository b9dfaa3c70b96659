#!/bin/sh
# The examples users copy (docs/examples/) are well-formed: the systemd units pass
# `systemd-analyze verify`, every crontab line has five valid time fields and a command without
# a bare %, the Kubernetes manifest parses as YAML with concurrencyPolicy Forbid, and every dlock
# command line in them is accepted by the built dlock's option parser. dlock has no dry run, so
# each one runs against a Redis socket that does not exist: exit 69 (Redis unreachable) means
# every option, name and duration was accepted (a usage error is 64, and nothing runs: the
# command after `--` needs the lock first). A tool that is missing skips its part, with a line
# saying so.
# Usage: examples_test.sh EXAMPLES_DIR DLOCK_BINARY
set -eu
set -f # crontab fields hold *: no file name expansion anywhere
examples=$1
dlock=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
    echo "FAIL $*"
    failures=$((failures + 1))
}
mkdir "$tmp/bin"
ln -s "$dlock" "$tmp/bin/dlock"
echo secret >"$tmp/redis-password"

# accepted WHERE COMMAND: the shell command line COMMAND (its dlock found on PATH) exits 69.
accepted() {
    status=0
    env -i PATH="$tmp/bin:/usr/bin:/bin" HOME="$tmp" DLOCK_CONFIG=/dev/null \
        DLOCK_SYSTEM_CONFIG=/dev/null DLOCK_REDIS_URL=unix:///nonexistent/dlock-examples.sock \
        sh -c "$2" >"$tmp/out" 2>&1 </dev/null || status=$?
    if [ "$status" -eq 69 ] && grep -q 'cannot reach Redis' "$tmp/out"; then
        echo "ok   $1: $2"
    else
        fail "$1: exit $status (expected 69, Redis unreachable): $2"
        cat "$tmp/out"
    fi
}

# dlock_segments COMMAND: the parts of a shell command line that run dlock, one per line.
dlock_segments() {
    printf '%s\n' "$1" | sed 's/ *\(&&\|||\|;\) */\n/g' | grep -E '^(/usr/bin/)?dlock ' || true
}

# A crontab time field: a list of *, N or N-M (or names), each with an optional /step, in range.
valid_field() { # VALUE MIN MAX
    for item in $(printf '%s' "$1" | tr ',' ' '); do
        printf '%s\n' "$item" | grep -Eqi '^(\*|[0-9]+(-[0-9]+)?|[a-z]{3}(-[a-z]{3})?)(/[0-9]+)?$' ||
            return 1
        for n in $(printf '%s' "$item" | sed 's#/.*##' | tr -- '-' ' ' | tr -d '*'); do
            case $n in *[!0-9]*) continue ;; esac
            [ "$n" -ge "$2" ] && [ "$n" -le "$3" ] || return 1
        done
    done
}

# crontab: every line is a comment, blank, a VAR=value or five time fields and a command.
crontab=$examples/crontab
lines=0
while IFS= read -r line; do
    case $line in '' | '#'*) continue ;; esac
    if printf '%s\n' "$line" | grep -Eq '^[A-Za-z_][A-Za-z0-9_]*='; then
        continue
    fi
    lines=$((lines + 1))
    # shellcheck disable=SC2086 # split the line into its fields
    set -- $line
    if [ $# -lt 6 ] || ! valid_field "$1" 0 59 || ! valid_field "$2" 0 23 ||
        ! valid_field "$3" 1 31 || ! valid_field "$4" 1 12 || ! valid_field "$5" 0 7; then
        fail "crontab: not five time fields and a command: $line"
        continue
    fi
    command=$(printf '%s\n' "$line" | sed -E 's/^([^ ]+ +){5}//')
    # cron turns an unescaped % into a newline: the command would be cut there.
    if printf '%s' "$command" | sed 's/\\%//g' | grep -q '%'; then
        fail "crontab: unescaped % in: $command"
    fi
    segments=$(dlock_segments "$command")
    [ -n "$segments" ] || fail "crontab: no dlock command in: $command"
    printf '%s\n' "$segments" | sed 's/\\%/%/g' >"$tmp/segments"
    while IFS= read -r segment; do accepted crontab "$segment"; done <"$tmp/segments"
done <"$crontab"
[ "$lines" -gt 0 ] || fail "crontab: no job lines in $crontab"

# systemd: the units verify (with ExecStart's dlock the built one), and ExecStart parses.
service=$examples/nightly-backup.service
exec_start=$(sed -n 's#^ExecStart=/usr/bin/dlock #dlock #p' "$service")
accepted "$(basename "$service")" "$exec_start"
grep -q '^Type=oneshot$' "$service" || fail "$service: not Type=oneshot"
grep -q '^SuccessExitStatus=75$' "$service" || fail "$service: no SuccessExitStatus=75"
if command -v systemd-analyze >/dev/null 2>&1; then
    mkdir "$tmp/units"
    sed "s#^ExecStart=/usr/bin/dlock #ExecStart=$dlock #" "$service" >"$tmp/units/nightly-backup.service"
    cp "$examples/nightly-backup.timer" "$tmp/units/"
    # Only what it says about these units counts: a container may add notes of its own.
    status=0
    out=$(systemd-analyze verify "$tmp/units/nightly-backup.service" \
        "$tmp/units/nightly-backup.timer" 2>&1) || status=$?
    if [ "$status" -eq 0 ] && ! printf '%s\n' "$out" | grep -q 'nightly-backup'; then
        echo "ok   systemd-analyze verify nightly-backup.service nightly-backup.timer"
    else
        fail "systemd-analyze verify (exit $status): $out"
    fi
else
    echo "systemd-analyze is not installed: the units' syntax was not verified"
fi

# Kubernetes: the manifest parses, the CronJob forbids overlapping runs, its command parses.
manifest=$examples/kubernetes-cronjob.yaml
if python3 -c 'import yaml' >/dev/null 2>&1; then
    # One word per line: the container's command, with the password file's path made local.
    if python3 - "$manifest" "$tmp/redis-password" >"$tmp/command" <<'EOF'; then
import sys, yaml
(cronjob,) = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] == "CronJob"]
spec = cronjob["spec"]
assert spec["concurrencyPolicy"] == "Forbid", "concurrencyPolicy is not Forbid"
(container,) = spec["jobTemplate"]["spec"]["template"]["spec"]["containers"]
for word in container["command"]:
    print(sys.argv[2] if word == "/etc/dlock/redis-password" else word)
EOF
        command=$(sed "s/'/'\\\\''/g; s/.*/'&'/" "$tmp/command" | tr '\n' ' ')
        accepted "$(basename "$manifest")" "$command"
    else
        fail "$manifest does not parse as a CronJob with concurrencyPolicy Forbid"
    fi
else
    echo "python3 with yaml (python3-yaml) is not installed: $manifest was not parsed"
fi

[ "$failures" -eq 0 ]
