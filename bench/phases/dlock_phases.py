#!/usr/bin/env python3
"""Per-phase wall time of `dlock run NAME -- CMD` and `flock FILE CMD` runs, from `perf script`
output of sched and syscall tracepoints recorded system-wide (perf record -a: no per-task event
inheritance, which would slow every fork). Prints p25/median/p75 per phase, in microseconds.

    perf script -i perf.data | bench/phases/dlock_phases.py DLOCK_PATH_SUBSTRING
"""
import re
import statistics
import sys

LINE = re.compile(r'^\s*(\S.*?)\s+(\d+)\s+\[\d+\]\s+([\d.]+):\s+(\S+):\s*(.*)$')


def parse(lines, binary):
    """Events per run of `binary` (a substring of its exec'd path) and of flock."""
    runs, owner_of, order = {}, {}, []
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        pid, t, ev, rest = int(m.group(2)), float(m.group(3)) * 1e6, m.group(4), m.group(5)
        if ev == 'sched:sched_process_exec':
            path = rest.split()[0][len('filename='):]
            if binary in path or path.endswith('/flock'):
                runs[pid] = {'kind': 'flock' if path.endswith('/flock') else 'dlock',
                             'exec': t, 'forks': [], 'sends': [], 'replies': [], 'exits': {}}
                order.append(pid)
                continue
        owner = pid if pid in runs else owner_of.get(pid)
        if owner is None:
            continue
        r = runs[owner]
        if pid != owner:
            if ev == 'sched:sched_process_exec':
                r['command_exec'] = t
            elif ev == 'sched:sched_process_exit':
                r['exits'][pid] = t
            continue
        if ev == 'syscalls:sys_enter_connect':
            r.setdefault('connect', t)
        elif ev == 'syscalls:sys_enter_sendto':
            r['sends'].append(t)
        elif ev == 'syscalls:sys_exit_recvfrom' and not rest.startswith('0xfff'):
            r['replies'].append(t)
        elif ev in ('syscalls:sys_enter_clone', 'syscalls:sys_enter_vfork'):
            r.setdefault('spawn', t) if ev.endswith('vfork') or r['kind'] == 'flock' else None
            if ev.endswith('clone') and r['kind'] == 'dlock':
                r.setdefault('clone', t)
        elif ev == 'sched:sched_process_fork':
            child = int(re.search(r'child_pid=(\d+)', rest).group(1))
            owner_of[child] = owner
            r['forks'].append((t, child))
        elif ev == 'syscalls:sys_enter_exit_group':
            r['exit_group'] = t
        elif ev == 'sched:sched_process_exit':
            r['exit'] = t
    return [runs[p] for p in order]


def phases(r):
    """(name, microseconds) of one run; KeyError/IndexError if incomplete."""
    forks = dict((c, t) for t, c in r['forks'])
    command = [c for c in forks if c in r['exits']][-1]
    out = []
    if r['kind'] == 'flock':
        out += [('exec -> fork', r['spawn'] - r['exec']),
                ('fork -> command exec', r['command_exec'] - r['spawn'])]
    else:
        guardians = [c for c in forks if c != command]
        out += [('exec -> connect', r['connect'] - r['exec']),
                ('connect -> acquire sent', r['sends'][0] - r['connect']),
                ('acquire round trip', r['replies'][0] - r['sends'][0]),
                ('acquire reply -> command exec', r['command_exec'] - r['replies'][0]),
                ('  of which vfork -> command exec', r['command_exec'] - r['spawn'])]
        if guardians:
            out.append(('guardian clone() (wherever it is)', forks[guardians[0]] - r['clone']))
    out.append(('command exec -> its exit', r['exits'][command] - r['command_exec']))
    if r['kind'] == 'dlock':
        out += [('command exit -> release sent', r['sends'][1] - r['exits'][command]),
                ('release round trip', r['replies'][1] - r['sends'][1])]
        guardians = [c for c in forks if c != command and c in r['exits']]
        if guardians:
            out.append(('guardian exit - release reply', r['exits'][guardians[0]] - r['replies'][1]))
        out.append(('release reply -> exit_group', r['exit_group'] - r['replies'][1]))
    else:
        out.append(('command exit -> exit_group', r['exit_group'] - r['exits'][command]))
    out.append(('TOTAL exec -> exited', r['exit'] - r['exec']))
    return out


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else 'dlock'
    table = {}
    for run in parse(sys.stdin, binary):
        try:
            for name, value in phases(run):
                table.setdefault(run['kind'], {}).setdefault(name, []).append(value)
        except (KeyError, IndexError):
            pass  # a run cut off by the recording
    for kind in ('flock', 'dlock'):
        rows = table.get(kind, {})
        count = len(rows.get('TOTAL exec -> exited', []))
        print(f'== {kind}: {count} runs (us)   {"p25":>7} {"median":>7} {"p75":>7}')
        for name, values in rows.items():
            q = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
            print(f'{name:<40} {q[0]:7.0f} {statistics.median(values):7.0f} {q[2]:7.0f}')


if __name__ == '__main__':
    main()
