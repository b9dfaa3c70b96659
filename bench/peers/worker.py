"""One redis-py Lock client for bench/peers.sh, the same two modes as worker.js.

  python3 worker.py PROFILE PORT cycles N
  python3 worker.py PROFILE PORT handover ID LOG COUNTER JOBS HOLD

PROFILE: default (Lock's sleep=0.1 s between tries) or tuned (sleep=0.005 s). Waits are
unbounded in both (blocking_timeout=None, the default).
"""
import random
import sys
import time

import redis

KEY = "peers-bench"


def read_counter(path):
    """The counter's value; None if empty (outside the lock: the holder is rewriting it)."""
    with open(path) as f:
        text = f.read()
    return int(text) if text else None


def cycles(make_lock, n):
    for _ in range(200):  # warm-up: connection, script cache
        lock = make_lock()
        lock.acquire()
        lock.release()
    start = time.perf_counter()
    for _ in range(n):
        lock = make_lock()
        lock.acquire()
        lock.release()
    print(f"{n / (time.perf_counter() - start):.1f}")


def handover(make_lock, wid, log, counter, jobs, hold):
    while True:
        lock = make_lock()
        lock.acquire()
        done = read_counter(counter)
        if done >= jobs:
            lock.release()
            return
        with open(counter, "w") as f:
            f.write(str(done + 1))
        with open(log, "a") as f:
            f.write(f"s {time.time():.6f} {wid}\n")
        time.sleep(hold * random.uniform(0.5, 1.5))
        with open(log, "a") as f:
            f.write(f"e {time.time():.6f} {wid}\n")
        lock.release()
        # Sit out until another worker's job has started: at every release the others all wait.
        seen = done + 1
        while seen is None or (seen == done + 1 and seen < jobs):
            time.sleep(0.001)
            seen = read_counter(counter)


def main():
    profile, port, mode, *rest = sys.argv[1:]
    client = redis.Redis(host="127.0.0.1", port=int(port))
    retry = {"sleep": 0.005} if profile == "tuned" else {}

    def make_lock():
        return client.lock(KEY, timeout=30, **retry)

    if mode == "cycles":
        cycles(make_lock, int(rest[0]))
    else:
        handover(make_lock, rest[0], rest[1], rest[2], int(rest[3]), float(rest[4]))


if __name__ == "__main__":
    main()
