#!/bin/bash
# How long before the lease's expiry a step started under `dlock acquire` dies when Redis
# freezes: a script acquires, starts a step writing the time every 5 ms, Redis gets SIGSTOP;
# prints the lease time left at the freeze (PTTL), the time from the freeze to the step's last
# write, and the difference (how long before the expiry the step was gone).
#   bench/acquire_loss.sh          # [DLOCK=build/dlock] [TTL=6s] [KA=1s] [IGN=1: the step ignores TERM]
set -u
DLOCK=$(realpath "${DLOCK:-build/dlock}")
TTL=${TTL:-6s} KA=${KA:-1s} IGN=${IGN:-0}
D=$(mktemp -d)
trap 'redis-cli -s "$D/s.sock" shutdown nosave >/dev/null 2>&1; rm -rf "$D"' EXIT
redis-server --port 0 --unixsocket "$D/s.sock" --dir "$D" --save '' --daemonize yes \
    --pidfile "$D/pid" >/dev/null
sleep 0.3
export DLOCK_REDIS_URL=unix://$D/s.sock D IGN
cat >"$D/job.sh" <<EOS
#!/bin/bash
eval "\$("$DLOCK" acquire --ttl $TTL --kill-after $KA job)"
sh -c '[ "\$IGN" = 1 ] && trap "" TERM; while :; do date +%s%N > "\$D/last.tmp"; mv "\$D/last.tmp" "\$D/last"; sleep 0.005; done' &
wait
EOS
chmod +x "$D/job.sh"
setsid "$D/job.sh" &
sleep 1.5
pttl=$(redis-cli -s "$D/s.sock" pttl 'dlock:{job}:lock')
frozen=$(date +%s%N)
kill -STOP "$(cat "$D/pid")"
sleep 8
last=$(cat "$D/last")
kill -CONT "$(cat "$D/pid")"
died=$(((last - frozen) / 1000000))
echo "lease left at the freeze ${pttl} ms; step's last write ${died} ms after it; gone $((pttl - died)) ms before the expiry"
