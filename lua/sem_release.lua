-- Give a semaphore permit back, or leave its waiting queue (or both), then wake the waiters
-- that this made able to take a permit, and nobody else.
--
--   redis-cli --eval build/lua/sem_release.lua dlock:{pool}:sem dlock:{pool}:permits \
--     dlock:{pool}:squeue dlock:{pool}:salive dlock:{pool}:swake: [dlock:{pool}:released:PERMIT] , \
--     OWNER PERMIT WAITER HEARTBEAT_MS
--
-- PERMIT is released only if OWNER holds it; an unknown, expired or foreign permit frees
-- nothing. PERMIT or WAITER may be "". Idempotent: repeating a call changes nothing more.
-- Optional KEYS[6]: the permit's release receipt, left behind for as long as the permit could
-- have lasted, so that a retry whose first try ran but lost its reply answers "released" (1)
-- rather than "not ours", which dlock reports as a lost lease (see release.lua).
-- Returns {1 if PERMIT was ours and is now released (else 0), permits still held}.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/waiters.lua
--@include lib/permits.lua
--@include lib/holder.lua

local sem, permits, queue, alive, wake, receipt = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5],
                                                 KEYS[6]
local owner, permit, waiter, heartbeat = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local s = {sem = sem, permits = permits, queue = queue, alive = alive, wake = wake}

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- The client retries a release for a few seconds even past the lease's end: the receipt
-- outlives both.
local RECEIPT_MIN_MS = 10000
local deadline = permit ~= '' and tonumber(redis.call('ZSCORE', permits, permit))
local before = entitled_before(s)
drop_expired_permits(s, now_ms)

local released = 0
local info = permit ~= '' and redis.call('HGET', sem, 'p:' .. permit)
if info and holder_owner(info) == owner then
  redis.call('HDEL', sem, 'p:' .. permit)
  redis.call('ZREM', permits, permit)
  released = 1
  if receipt then
    redis.call('SET', receipt, owner, 'PX', math.max((deadline or 0) - now_ms, RECEIPT_MIN_MS))
  end
elseif receipt and permit ~= '' and redis.call('GET', receipt) == owner then
  released = 1 -- a retry of a release that ran but whose reply was lost
end

if s.waiting and waiter ~= '' then
  drop_waiter(s, waiter)
end
local held = wake_newly_entitled(s, before, now_ms, heartbeat)
return {released, held}
