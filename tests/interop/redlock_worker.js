// A node-redlock 4 client on one server (SET NX PX, compare-and-delete) for the --compat setnx
// e2e tests. Usage: node redlock_worker.js PORT NAME LOG COUNT SECTION_MS: each of COUNT rounds,
// lock (retrying), log "start ID" / "end ID", unlock. Exits 0 when done; 3 when a round fails.
'use strict';
const fs = require('fs');
const Redis = require('ioredis');
const Redlock = require('redlock');

const [port, name, log, count, sectionMs] = process.argv.slice(2);
const id = `redlock${process.pid}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const note = (what) => fs.appendFileSync(log, `${what} ${id} ${Date.now()}\n`);

async function main() {
  const client = new Redis({ host: '127.0.0.1', port: Number(port) });
  const redlock = new Redlock([client], { retryCount: -1, retryDelay: 50, retryJitter: 25 });
  try {
    for (let i = 0; i < Number(count); i++) {
      const lock = await redlock.lock(name, 10000);
      note('start');
      await sleep(Number(sectionMs));
      note('end');
      await lock.unlock();
    }
  } finally {
    client.disconnect();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`redlock_worker: ${e && e.stack ? e.stack : e}`);
    process.exit(3);
  },
);
