// A node-redisson (Redisson's scripts, in Node) client for the --compat e2e tests
// (tests/e2e/compat_test.cpp). Usage:
//   node redisson_worker.js PORT NAME loop LOG COUNT SECTION_MS  each of COUNT rounds: lock, log
//                                                                "start ID" / "end ID", unlock
//   node redisson_worker.js PORT NAME hold LOG GO_FILE          lock, log "held ID", wait for
//                                                                GO_FILE, log "releasing ID", unlock
//   node redisson_worker.js PORT NAME wait LOG                  lock (waiting), log "acquired ID",
//                                                                unlock
// Exits 0 when done; 3 when a round fails.
'use strict';
const fs = require('fs');
const { Redisson } = require('node-redisson');

const [port, name, mode, log, ...rest] = process.argv.slice(2);
const id = `node${process.pid}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const note = (what) => fs.appendFileSync(log, `${what} ${id} ${Date.now()}\n`);

async function main() {
  const redisson = new Redisson({
    redis: { options: { host: '127.0.0.1', port: Number(port) } },
    lockWatchdogTimeout: 30000n,
  });
  const lock = redisson.getLock(name);
  try {
    if (mode === 'loop') {
      const [count, sectionMs] = rest.map(Number);
      for (let i = 0; i < count; i++) {
        await lock.lock();
        note('start');
        await sleep(sectionMs);
        note('end');
        await lock.unlock();
      }
    } else if (mode === 'hold') {
      await lock.lock();
      note('held');
      while (!fs.existsSync(rest[0])) await sleep(10);
      note('releasing');
      await lock.unlock();
    } else if (mode === 'wait') {
      await lock.lock();
      note('acquired');
      await lock.unlock();
    }
  } finally {
    await redisson.quit();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`redisson_worker: ${e && e.stack ? e.stack : e}`);
    process.exit(3);
  },
);
