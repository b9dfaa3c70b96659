# fish completion for dlock. Installed as share/fish/vendor_completions.d/dlock.fish.

# Prints the subcommand path of the command line ("", "run", "sem run", "latch wait", ...), then
# the global options typed before it, one per line; with "--" before the cursor, prints "--".
function __dlock_parse
    set -l tokens (commandline -opc)
    set -l path
    set -l globals
    set -l i 2
    while test $i -le (count $tokens)
        set -l word $tokens[$i]
        set i (math $i + 1)
        switch $word
            case --
                printf '%s\n' --
                return
            case --redis --password-file --prefix --connect-timeout --redis-timeout --log-format \
                --sentinel-user --sentinel-password-file --tls-ca-file --tls-ca-dir --tls-cert \
                --tls-key --tls-server-name --min-replicas --replica-timeout
                if test -z "$path"; and test $i -le (count $tokens)
                    set -a globals $word $tokens[$i]
                end
                set i (math $i + 1)
            case -w --wait --timeout -E --conflict-exit-code --timeout-exit-code --ttl -k \
                --kill-after --lost-signal -c --command --min-hold --max-run -p --permits --compat --count --cycles \
                --once-per --offset --tolerance \
                --waiters --handovers --name --permit --pid --format --hold --status --max-age --warn-age --output \
                --for --until --reason
                set i (math $i + 1)
            case -n
                test "$path" = history; and set i (math $i + 1)
            case -o
                test "$path" = metrics; and set i (math $i + 1)
            case '-*'
                test -z "$path"; and set -a globals $word
            case '*'
                switch "$path $word"
                    case ' run' ' acquire' ' sem' ' latch' ' status' ' history' ' check' ' release' ' config' \
                        ' bench' ' metrics' ' forget' ' pause' ' resume' 'sem run' 'sem status' 'latch create' 'latch count-down' \
                        'latch wait' 'latch status'
                        set path (string trim -- "$path $word")
                end
        end
    end
    printf '%s\n' "$path" $globals
end

# True when the subcommand path is one of the arguments ("" for none yet).
function __dlock_at
    set -l parsed (__dlock_parse)
    test "$parsed[1]" != --; and contains -- "$parsed[1]" $argv
end

function __dlock_after_dashes
    set -l parsed (__dlock_parse)
    test "$parsed[1]" = --
end

# Names in use, from `dlock status --names` against the same Redis as the command line (its
# global options are passed on); quick timeouts, errors silenced.
function __dlock_names
    set -l globals (__dlock_parse)
    set -e globals[1]
    set -l program (commandline -opc)[1]
    command -q $program; or return
    DLOCK_CONNECT_TIMEOUT=500ms DLOCK_REDIS_TIMEOUT=1s DLOCK_LOG_LEVEL=error DLOCK_SYSLOG=false \
        $program $globals status --names 2>/dev/null
end

# After "--": the command and its arguments, completed as a command line of their own.
function __dlock_command
    set -l tokens (commandline -opc)
    set -l dashes (contains -i -- -- $tokens)
    __fish_complete_subcommand --commandline $tokens[(math $dashes + 1)..-1] (commandline -ct)
end

complete -c dlock -f
complete -c dlock -n __dlock_after_dashes -a '(__dlock_command)'

# Global options and subcommands.
set -l top '__dlock_at ""'
complete -c dlock -n $top -s h -l help -d 'Print help and exit'
complete -c dlock -n $top -l version -d 'Print the version and exit'
complete -c dlock -n $top -l redis -x -a 'redis:// rediss:// redis-sentinel:// rediss-sentinel:// unix://' -d 'Redis URL'
complete -c dlock -n $top -l password-file -r -F -d 'Read the Redis password from FILE'
complete -c dlock -n $top -l sentinel-user -x -d 'User name for the sentinels'
complete -c dlock -n $top -l sentinel-password-file -r -F -d 'Read the sentinels\' password from FILE'
complete -c dlock -n $top -l tls-ca-file -r -F -d 'Verify TLS servers against these CA certificates'
complete -c dlock -n $top -l tls-ca-dir -x -a '(__fish_complete_directories)' -d 'Hashed CA directory'
complete -c dlock -n $top -l tls-cert -r -F -d 'Client certificate (PEM)'
complete -c dlock -n $top -l tls-key -r -F -d 'Private key of the client certificate'
complete -c dlock -n $top -l tls-server-name -x -d 'Name to send (SNI) and verify'
complete -c dlock -n $top -l tls-insecure -d 'Do not verify the server certificate'
complete -c dlock -n $top -l min-replicas -x -d 'Replicas that must acknowledge a lease (WAIT)'
complete -c dlock -n $top -l replica-timeout -x -d 'How long --min-replicas waits'
complete -c dlock -n $top -l prefix -x -d 'Key prefix'
complete -c dlock -n $top -l connect-timeout -x -d 'Give up connecting after DURATION'
complete -c dlock -n $top -l redis-timeout -x -d 'Give up on a Redis command after DURATION'
complete -c dlock -n $top -s v -l verbose -d 'More output: -v info, -vv debug'
complete -c dlock -n $top -s q -l quiet -d 'Print errors only'
complete -c dlock -n $top -l syslog -d 'Log to syslog; stderr keeps errors only'
complete -c dlock -n $top -l no-syslog -d 'Do not log to syslog'
complete -c dlock -n $top -l log-format -x -a 'text json' -d 'Log line format'
complete -c dlock -n $top -a run -d 'Run a command while holding a lock'
complete -c dlock -n $top -a acquire -d 'Hold a lock for the rest of a shell script'
complete -c dlock -n $top -a sem -d 'Semaphores: at most N holders at once'
complete -c dlock -n $top -a latch -d 'Count-down latches'
complete -c dlock -n $top -a status -d 'Show who holds locks, semaphores and latches'
complete -c dlock -n $top -a history -d 'Show what happened to a name'
complete -c dlock -n $top -a check -d 'Monitoring plugin: did a name succeed within --max-age'
complete -c dlock -n $top -a release -d 'Break a lock or semaphore permits whoever holds them (--force)'
complete -c dlock -n $top -a config -d 'Show the effective settings and their origin'
complete -c dlock -n $top -a bench -d 'Measure this Redis as dlock uses it'
complete -c dlock -n $top -a metrics -d 'Print Prometheus metrics for the textfile collector'
complete -c dlock -n $top -a forget -d 'Remove what a free name leaves in Redis'
complete -c dlock -n $top -a pause -d 'Pause a name on every host until the pause ends'
complete -c dlock -n $top -a resume -d 'End the pause of a name'

# run, sem run and acquire.
set -l runs '__dlock_at run "sem run" acquire'
complete -c dlock -n $runs -s n -l no-wait -d 'Give up at once if the lock is held (default)'
complete -c dlock -n $runs -s w -l wait -x -d 'Wait up to DURATION (or forever)'
complete -c dlock -n $runs -l timeout -x -d 'The same as --wait (flock\'s name)'
complete -c dlock -n $runs -s E -l conflict-exit-code -x -d 'Exit status when not obtained'
complete -c dlock -n $runs -l ttl -x -d 'Lease length, renewed every TTL/3'
complete -c dlock -n $runs -s k -l kill-after -x -d 'SIGKILL this long after the stop signal'
complete -c dlock -n $runs -l lost-signal -x -a 'TERM INT HUP QUIT USR1 USR2 KILL' \
    -d 'Signal sent when the lease is lost'
complete -c dlock -n '__dlock_at run "sem run"' -s c -l command -x -d 'Run STRING with /bin/sh -c'
complete -c dlock -n '__dlock_at run "sem run" acquire' -l max-run -x -d 'Stop the command after DURATION (exit 124)'
complete -c dlock -n $runs -s h -l help -d 'Print help and exit'
complete -c dlock -n '__dlock_at run acquire' -s s -l shared -d 'Take the lock shared'
complete -c dlock -n '__dlock_at run acquire' -s x -l exclusive -d 'Take the lock exclusively (default)'
complete -c dlock -n '__dlock_at run acquire' -l min-hold -x -d 'Keep the lock at least DURATION'
complete -c dlock -n '__dlock_at run acquire' -l ephemeral -d 'Once released, leave nothing in Redis for a free name'
complete -c dlock -n '__dlock_at acquire' -l pid -x -d 'Keep the lock until process PID exits'
complete -c dlock -n '__dlock_at acquire' -l format -x -a 'sh json' -d 'Output format'
complete -c dlock -n '__dlock_at run' -l once-per -x -d 'Run once successfully per PERIOD'
complete -c dlock -n '__dlock_at run' -l offset -x -d 'Shift the slot boundaries'
complete -c dlock -n '__dlock_at run' -l tolerance -x -d 'Count an early run toward the next slot'
complete -c dlock -n '__dlock_at run' -l once-per-strict -d 'Close the slot when a run starts'
complete -c dlock -n '__dlock_at run acquire' -l compat -x -a 'redisson setnx' -d "Share the lock with another library's format"
complete -c dlock -n '__dlock_at "sem run"' -s p -l permits -x -d 'Number of permits'

# sem and latch.
complete -c dlock -n '__dlock_at sem' -a run -d 'Run a command holding one of N permits'
complete -c dlock -n '__dlock_at sem' -a status -d 'Show a semaphore'
complete -c dlock -n '__dlock_at latch' -a create -d 'Create a latch at COUNT'
complete -c dlock -n '__dlock_at latch' -a count-down -d 'Count a latch down by N'
complete -c dlock -n '__dlock_at latch' -a wait -d 'Wait until a latch reaches zero'
complete -c dlock -n '__dlock_at latch' -a status -d 'Show a latch'
complete -c dlock -n '__dlock_at "latch create"' -l ttl -x -d 'Lifetime of the latch'
complete -c dlock -n '__dlock_at "latch create"' -l reset -d 'Start a new round at COUNT'
complete -c dlock -n '__dlock_at "latch wait"' -s w -l wait -x -d 'Give up after DURATION'
complete -c dlock -n '__dlock_at "latch wait"' -s E -l timeout-exit-code -x \
    -d 'Exit status on timeout'
complete -c dlock -n '__dlock_at "sem status" "latch status" status' -l json -d 'Print JSON'

# status, history, release, bench.
complete -c dlock -n '__dlock_at status' -l names -d 'Print only the names in use'
complete -c dlock -n '__dlock_at status' -s l -l wide -d 'Show every column'
complete -c dlock -n '__dlock_at status' -l watch -d 'Redraw at a terminal every INTERVAL (default 1s) until Ctrl-C'
complete -c dlock -n '__dlock_at status' -l all -d 'Every known name with its last run'
complete -c dlock -n '__dlock_at history' -s n -l count -x -d 'Show the newest COUNT entries'
complete -c dlock -n '__dlock_at history' -l json -d 'Print a JSON array'
complete -c dlock -n '__dlock_at status history release' -l compat -x -a 'redisson setnx' \
    -d "NAME is another library's lock key in this format"
complete -c dlock -n '__dlock_at check' -l max-age -x -d 'CRITICAL when the last success is older'
complete -c dlock -n '__dlock_at check' -l warn-age -x -d 'WARNING when the last success is older'
complete -c dlock -n '__dlock_at release' -s f -l force -d 'Really break the lock or permits'
complete -c dlock -n '__dlock_at release' -l permit -x \
    -d 'Break only this permit of semaphore NAME (id from sem status)'
complete -c dlock -n '__dlock_at release' -l all-permits -d 'Break every permit of semaphore NAME'
complete -c dlock -n '__dlock_at release' -l hold -x -d 'Release this hold of dlock acquire'
complete -c dlock -n '__dlock_at release' -l status -x -d 'How the script ended: counted ok for 0, else failed'
complete -c dlock -n '__dlock_at bench' -l cycles -x -d 'Uncontended acquire+release cycles'
complete -c dlock -n '__dlock_at bench' -s k -l waiters -x -d 'Waiters per handover run'
complete -c dlock -n '__dlock_at bench' -l handovers -x -d 'Handover samples per run'
complete -c dlock -n '__dlock_at bench' -l name -x -d 'Name prefix of the bench keys'
complete -c dlock -n '__dlock_at bench' -l json -d 'Print JSON'
complete -c dlock -n '__dlock_at metrics' -s o -l output -r -F -d 'Write FILE atomically instead of stdout'
complete -c dlock -n '__dlock_at pause' -l for -x -a forever -d 'How long: a duration (2h, 30m), or forever'
complete -c dlock -n '__dlock_at pause' -l until -x -d 'Until a local time: 14:00, or 2026-12-01 14:00'
complete -c dlock -n '__dlock_at pause' -l reason -x -d 'Why, shown to skipped runs, status and check'
complete -c dlock -n '__dlock_at sem latch "sem status" "latch status" "latch create" "latch count-down" "latch wait" status history check release config bench metrics forget pause resume' \
    -s h -l help -d 'Print help and exit'

# Names.
complete -c dlock -n '__dlock_at run acquire "sem run" "sem status" status history check release metrics forget pause resume "latch create" "latch count-down" "latch wait" "latch status"' \
    -a '(__dlock_names)' -d name
