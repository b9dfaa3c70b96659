#!/usr/bin/env bash
# `dlock run NAME -- true` against `flock FILE true`, measured the way a skeptic would: whole
# processes, alternating pairs (which one goes first alternates too), PAIRS pairs (default 300)
# after a warm-up, over TCP loopback and over a unix socket, with LOGNAME set and unset (cron
# sets it; many containers do not). Prints min/median/max of each side and of the pairwise
# ratios; the figure that counts is the median of the ratios in pipe mode.
#   MODES="pipe wait" (default): pipe = stdout and stderr are a pipe read to end of file, the run
#     ends at end of file and reaped exit, whichever is last (as `x=$(...)` or `| cat` see it);
#     wait = output inherited, the run ends when the process is reaped (the old harness).
#   In pipe mode, "eof-exit" is the median time from the exit being observable to end of file
#   (> 0: something held the pipe after the process had exited).
#   Background load adds the same to both sides and pulls the ratio towards 1: "quiet-quarter
#   ratio" is the median ratio of the pairs whose neighbouring pairs were in the fastest quarter
#   (the machine at its quietest). On a busy machine, trust that one, and the load averages.
#   bench/pairs.sh                       # builds build-bench/dlock (Release)
#   DLOCK=path PAIRS=400 MODES=pipe bench/pairs.sh
#   BASELINE=/path/to/other/dlock bench/pairs.sh   # that build instead of flock as side A
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

PAIRS=${PAIRS:-300}
WARMUP=${WARMUP:-20}
MODES=${MODES:-pipe wait}
bench_build
bench_start_redis
cc -O2 -o "$BENCH_TMP/pairs" "$BENCH_ROOT/bench/pairs.c"
user=$(id -un)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

summary() { # NAME TSV
    awk -F'\t' -v name="$1" 'NR > 1 { a[++n] = $2; b[n] = $3; r[n] = $4; la[n] = $5; lb[n] = $6 }
        function med(x, n,   i, j, t, s) {
            for (i = 1; i <= n; i++) s[i] = x[i]
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
            lo = s[1]; hi = s[n]; q1 = s[int((n + 3) / 4)]
            return n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
        }
        END {
            ma = med(a, n); la_ = lo; ha = hi; mb = med(b, n); lb_ = lo; hb = hi; mr = med(r, n)
            lr = lo; hr = hi; ea = med(la, n); eb = med(lb, n)
            # Load compresses the ratio (it adds to both sides). The pairs whose neighbours ran
            # in the fastest quarter of times ran when the machine was quietest: their median.
            for (i = 2; i < n; i++) around[i - 1] = (a[i - 1] + b[i - 1] + a[i + 1] + b[i + 1]) / 4
            med(around, n - 2); cut = q1; m = 0
            for (i = 2; i < n; i++) if (around[i - 1] <= cut) quiet[++m] = r[i]
            mq = med(quiet, m)
            printf "%-23s %d pairs  A ms min/med/max %.3f/%.3f/%.3f  B ms %.3f/%.3f/%.3f  ratio B/A min/med/max %.3f/%.3f/%.3f  quiet-quarter ratio %.3f  eof-exit ms A/B %.3f/%.3f\n",
                   name, n, la_, ma, ha, lb_, mb, hb, lr, mr, hr, mq, ea, eb
        }' "$2"
}

if [[ -n ${BASELINE:-} ]]; then
    side_a() { echo "$BASELINE --redis $1 run bench-lock -- true"; }
else
    side_a() { echo "flock $BENCH_TMP/x true"; }
fi
for mode in $MODES; do
    for logname in set unset; do
        for transport in "redis://127.0.0.1:$REDIS_PORT" "unix://$REDIS_SOCK"; do
            name=$mode-LOGNAME_$logname-$([[ $transport == unix* ]] && echo unix || echo tcp)
            env=(env LOGNAME="$user")
            [[ $logname == unset ]] && env=(env -u LOGNAME)
            # shellcheck disable=SC2046
            "${env[@]}" "$BENCH_TMP/pairs" "$mode" "$PAIRS" "$WARMUP" ::: $(side_a "$transport") \
                ::: "$DLOCK" --redis "$transport" run bench-lock -- true >"$RESULTS/pairs-$name.tsv"
            summary "$name" "$RESULTS/pairs-$name.tsv"
        done
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "per-pair data: $RESULTS/pairs-{pipe,wait}-LOGNAME_{set,unset}-{tcp,unix}.tsv"
