# bash completion for dlock                                        -*- shell-script -*-
# Installed as share/bash-completion/completions/dlock; or: source completions/dlock.bash
# Plain bash: it does not need the bash-completion package's helpers.

_dlock_global_options='--help --version --redis --password-file --sentinel-user
    --sentinel-password-file --tls-ca-file --tls-ca-dir --tls-cert --tls-key --tls-server-name
    --tls-insecure --min-replicas --replica-timeout --prefix --connect-timeout --redis-timeout
    --verbose --quiet --syslog --no-syslog --log-format'
_dlock_run_options='--help --no-wait --wait --timeout --shared --exclusive --conflict-exit-code
    --ttl --kill-after --lost-signal --command --min-hold --max-run --once-per --offset
    --tolerance --once-per-strict --compat --ephemeral'

# Whether option $1 of subcommand path $2 takes the next word as its value.
_dlock_takes_value() {
    case $1 in
    --redis | --password-file | --prefix | --connect-timeout | --redis-timeout | --log-format | \
        --sentinel-user | --sentinel-password-file | --tls-ca-file | --tls-ca-dir | --tls-cert | \
        --tls-key | --tls-server-name | --min-replicas | --replica-timeout | \
        -w | --wait | --timeout | -E | --conflict-exit-code | --timeout-exit-code | --ttl | -k | \
        --kill-after | --lost-signal | -c | --command | --min-hold | --max-run | -p | --permits | \
        --once-per | --offset | --tolerance | --compat | \
        --count | --cycles | --waiters | --handovers | --name | --permit | --pid | --format | \
        --hold | --status | --max-age | --warn-age | --output | --for | --until | --reason)
        return 0
        ;;
    -n) [[ $2 == history ]] ;; # elsewhere -n is --no-wait
    -o) [[ $2 == metrics ]] ;;
    *) return 1 ;;
    esac
}

# COMP_WORDS split at ':' and '=' (in URLs and names): sets _dlock_words and _dlock_cword with
# those pieces glued back wherever no space separated them on the command line.
_dlock_split_words() {
    local offset=0 i word rest trimmed glued
    _dlock_words=() _dlock_cword=0
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        word=${COMP_WORDS[i]}
        rest=${COMP_LINE:offset}
        trimmed=${rest#"${rest%%[![:space:]]*}"}
        glued=$((i > 0 && ${#rest} == ${#trimmed}))
        offset=$((offset + ${#rest} - ${#trimmed} + ${#word}))
        if ((glued)) && [[ $word == [:=]* || ${_dlock_words[-1]} == *[:=] ]]; then
            _dlock_words[-1]+=$word
        else
            _dlock_words+=("$word")
        fi
        ((i == COMP_CWORD)) && _dlock_cword=$((${#_dlock_words[@]} - 1))
    done
}

# Names in use, from `dlock status --names` against the same Redis as the command line (its
# global options are passed on); quick timeouts, errors silenced.
_dlock_names() {
    DLOCK_CONNECT_TIMEOUT=500ms DLOCK_REDIS_TIMEOUT=1s DLOCK_LOG_LEVEL=error DLOCK_SYSLOG=false \
        "$1" "${@:2}" status --names 2>/dev/null
}

_dlock() {
    local _dlock_words _dlock_cword
    _dlock_split_words
    local cur=${_dlock_words[_dlock_cword]} prev=${_dlock_words[_dlock_cword - 1]}
    local program=${_dlock_words[0]} path='' globals=() positionals=0 i word
    COMPREPLY=()

    # Walk the words before the cursor: global options, subcommand path, positionals, "--".
    for ((i = 1; i < _dlock_cword; i++)); do
        word=${_dlock_words[i]}
        if [[ $word == -- ]]; then
            # After "--" comes the command: complete programs, then files.
            if ((_dlock_cword == i + 1)); then
                mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
            else
                mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            fi
            return 0
        fi
        if [[ $word == -* ]]; then
            if [[ -z $path ]]; then
                globals+=("$word")
                if _dlock_takes_value "$word" "" && ((i + 1 < _dlock_cword)); then
                    ((i++))
                    globals+=("${_dlock_words[i]}")
                fi
            elif _dlock_takes_value "$word" "$path"; then
                ((i++))
            fi
            continue
        fi
        case "$path $word" in
        " run" | " acquire" | " sem" | " latch" | " status" | " history" | " check" | " release" | " config" | \
            " bench" | " metrics" | " forget" | " pause" | " resume" | "sem run" | "sem status" | "latch create" | "latch count-down" | \
            "latch wait" | "latch status")
            path=${path:+$path }$word
            ;;
        *) ((positionals++)) ;;
        esac
    done

    _dlock_complete
    # Bash replaces only the part of the word after its last ':' or '='.
    local typed=${COMP_WORDS[COMP_CWORD]}
    local glued_prefix=${cur%"$typed"}
    if [[ -n $glued_prefix ]]; then
        for i in "${!COMPREPLY[@]}"; do
            COMPREPLY[i]=${COMPREPLY[i]#"$glued_prefix"}
        done
    fi
    return 0
}

# Fills COMPREPLY for cur, prev, path, positionals, program and globals set by _dlock.
_dlock_complete() {
    # The value of an option.
    case $prev in
    --password-file | --sentinel-password-file | --tls-ca-file | --tls-cert | --tls-key | --output | -o)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return 0
        ;;
    --tls-ca-dir)
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return 0
        ;;
    --log-format)
        mapfile -t COMPREPLY < <(compgen -W 'text json' -- "$cur")
        return 0
        ;;
    --lost-signal)
        mapfile -t COMPREPLY < <(compgen -W 'TERM INT HUP QUIT USR1 USR2 KILL' -- "$cur")
        return 0
        ;;
    --compat)
        mapfile -t COMPREPLY < <(compgen -W 'redisson setnx' -- "$cur")
        return 0
        ;;
    --format)
        mapfile -t COMPREPLY < <(compgen -W 'sh json' -- "$cur")
        return 0
        ;;
    --for)
        mapfile -t COMPREPLY < <(compgen -W 'forever' -- "$cur")
        return 0
        ;;
    --redis)
        mapfile -t COMPREPLY < <(compgen -W 'redis:// rediss:// redis-sentinel:// rediss-sentinel:// unix://' -- "$cur")
        compopt -o nospace 2>/dev/null
        return 0
        ;;
    esac
    if _dlock_takes_value "$prev" "$path"; then
        return 0 # a duration, a number, a prefix, a shell command: nothing to offer
    fi

    local options='' subcommands='' names=0
    case $path in
    '')
        options=$_dlock_global_options
        subcommands='run acquire sem latch status history check release config bench metrics forget
            pause resume'
        ;;
    run)
        options=$_dlock_run_options
        names=1
        ;;
    acquire)
        options='--help --no-wait --wait --timeout --shared --exclusive --conflict-exit-code
            --ttl --kill-after --lost-signal --min-hold --max-run --ephemeral --compat --pid
            --format'
        names=1
        ;;
    sem)
        options='--help'
        subcommands='run status'
        ;;
    'sem run')
        options='--help --no-wait --wait --timeout --permits --conflict-exit-code --ttl
            --kill-after --lost-signal --command --max-run'
        ((positionals == 0)) && names=1
        ;;
    'sem status' | 'latch status')
        options='--help --json'
        ((positionals == 0)) && names=1
        ;;
    latch)
        options='--help'
        subcommands='create count-down wait status'
        ;;
    'latch create')
        options='--help --ttl --reset'
        ((positionals == 0)) && names=1
        ;;
    'latch count-down')
        options='--help'
        ((positionals == 0)) && names=1
        ;;
    'latch wait')
        options='--help --wait --timeout-exit-code'
        ((positionals == 0)) && names=1
        ;;
    status)
        options='--help --json --names --wide --watch --all --compat'
        names=1
        ;;
    history)
        options='--help --count --json --compat'
        ((positionals == 0)) && names=1
        ;;
    check)
        options='--help --max-age --warn-age'
        names=1
        ;;
    release)
        options='--help --force --permit --all-permits --hold --status --compat'
        ((positionals == 0)) && names=1
        ;;
    config) options='--help' ;;
    bench) options='--help --cycles --waiters --handovers --name --json' ;;
    metrics)
        options='--help --output'
        names=1
        ;;
    forget | resume)
        options='--help'
        names=1
        ;;
    pause)
        options='--help --for --until --reason'
        names=1
        ;;
    esac

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    elif [[ -n $subcommands ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$subcommands" -- "$cur")
    elif ((names)); then
        mapfile -t COMPREPLY < <(compgen -W "$(_dlock_names "$program" "${globals[@]}")" -- "$cur")
    fi
}

complete -F _dlock dlock
