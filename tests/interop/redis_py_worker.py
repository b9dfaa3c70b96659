"""A redis-py Lock client (SET NX PX with a uuid token, compare-and-delete) for the --compat
setnx e2e tests (tests/e2e/compat_test.cpp). Usage:
  redis_py_worker.py PORT NAME loop LOG COUNT SECTION_MS   each of COUNT rounds: acquire, log
                                                           "start ID" / "end ID", release
  redis_py_worker.py PORT NAME hold LOG GO_FILE            acquire, log "held ID", wait for GO_FILE,
                                                           log "releasing ID", release
Exits 0 when done; 3 when a round fails."""
import os
import sys
import time

import redis


def main():
    port, name, mode, log = sys.argv[1:5]
    rest = sys.argv[5:]
    ident = "py%d" % os.getpid()

    def note(what):
        with open(log, "a") as f:
            f.write("%s %s %d\n" % (what, ident, int(time.time() * 1000)))

    client = redis.Redis(host="127.0.0.1", port=int(port))
    lock = client.lock(name, timeout=10, sleep=0.1, blocking_timeout=120)
    if mode == "loop":
        count, section_ms = int(rest[0]), int(rest[1])
        for _ in range(count):
            if not lock.acquire():
                return 3
            note("start")
            time.sleep(section_ms / 1000.0)
            note("end")
            lock.release()
    elif mode == "hold":
        if not lock.acquire():
            return 3
        note("held")
        while not os.path.exists(rest[0]):
            time.sleep(0.01)
        note("releasing")
        lock.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
