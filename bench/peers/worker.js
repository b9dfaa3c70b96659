// One Node.js lock client for bench/peers.sh: node-redlock (v4) or redis-semaphore's Mutex over
// ioredis, with the library's default retry interval or a tuned one.
//   node worker.js LIB PROFILE PORT cycles N                         -> prints cycles/s
//   node worker.js LIB PROFILE PORT handover ID LOG COUNTER JOBS HOLD
// LIB: redlock | semaphore; PROFILE: default | tuned. The handover mode is the loop every tool
// runs in bench/peers.sh: take the lock; if COUNTER (a file the lock protects) has reached JOBS,
// release and stop; else bump it, log "s TIME ID", hold 0.5 to 1.5 x HOLD seconds, log
// "e TIME ID", release, then wait until another worker's job has started before competing
// again, so that at every release the other workers are all waiting.
'use strict';
const fs = require('fs');
const Redis = require('ioredis');
const Redlock = require('redlock');
const { Mutex } = require('redis-semaphore');

const [lib, profile, port, mode, ...rest] = process.argv.slice(2);
const client = new Redis({ host: '127.0.0.1', port: Number(port), enableOfflineQueue: true });
const key = 'peers-bench';
const ttl = 30000;

// Waits are unbounded in both profiles (redlock's default retryCount of 10 and redis-semaphore's
// default acquireTimeout of 10 s would make a queued worker give up): only the retry interval
// changes between them.
function makeLock() {
  if (lib === 'redlock') {
    const retry = profile === 'tuned' ? { retryDelay: 10, retryJitter: 5 } : {};
    const redlock = new Redlock([client], { retryCount: -1, ...retry });
    return async () => {
      const lock = await redlock.lock(key, ttl);
      return () => lock.unlock();
    };
  }
  if (lib === 'semaphore') {
    const retry = profile === 'tuned' ? { retryInterval: 1 } : {};
    return async () => {
      const mutex = new Mutex(client, key, { lockTimeout: ttl, acquireTimeout: 3600000, ...retry });
      await mutex.acquire();
      return () => mutex.release();
    };
  }
  throw new Error(`unknown library ${lib}`);
}

const now = () => ((performance.timeOrigin + performance.now()) / 1000).toFixed(6);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// An empty read outside the lock is the holder rewriting the file: read it as null.
const readCounter = (file) => {
  const text = fs.readFileSync(file, 'utf8');
  return text === '' ? null : Number(text);
};

async function cycles(acquire, n) {
  for (let i = 0; i < 200; i++) await (await acquire())(); // warm-up: connection, script cache
  const start = performance.now();
  for (let i = 0; i < n; i++) await (await acquire())();
  console.log((n / ((performance.now() - start) / 1000)).toFixed(1));
}

async function handover(acquire, id, log, counter, jobs, hold) {
  for (;;) {
    const release = await acquire();
    const done = readCounter(counter);
    if (done >= jobs) return release();
    fs.writeFileSync(counter, String(done + 1));
    fs.appendFileSync(log, `s ${now()} ${id}\n`);
    await sleep(hold * 1000 * (0.5 + Math.random()));
    fs.appendFileSync(log, `e ${now()} ${id}\n`);
    await release();
    for (let seen = done + 1; seen === null || (seen === done + 1 && seen < jobs); seen = readCounter(counter)) {
      await sleep(1);
    }
  }
}

(async () => {
  const acquire = makeLock();
  if (mode === 'cycles') await cycles(acquire, Number(rest[0]));
  else await handover(acquire, rest[0], rest[1], rest[2], Number(rest[3]), Number(rest[4]));
  client.disconnect();
})().catch((err) => {
  console.error(`worker.js ${lib} ${profile}: ${err.stack || err}`);
  process.exit(1);
});
