-- lib/waiters.lua: the waiting queue of a lock or a semaphore. `q` names its keys:
--   q.queue   zset waiter id -> arrival (server us): the queue, in arrival order
--   q.alive   zset waiter id -> heartbeat deadline (server ms)
--   q.wake    prefix of the per-waiter wake lists (q.wake .. id)
--   q.xqueue  the exclusive waiters of q.queue, same scores (a lock's; nil for a semaphore)
--   q.info    hash waiter id -> what a grant needs to hold the lock for it (lib/grant.lua); nil
--             when grants are off

-- Remove waiter `id` from the queue, with its wake list.
local function drop_waiter(q, id)
  redis.call('ZREM', q.queue, id)
  if q.xqueue then
    redis.call('ZREM', q.xqueue, id)
  end
  redis.call('ZREM', q.alive, id)
  redis.call('DEL', q.wake .. id)
  if q.info then
    redis.call('HDEL', q.info, id)
  end
end

-- Waiters whose heartbeat lapsed by `now_ms` have crashed or given up: forget them so they block
-- nobody.
local function drop_dead_waiters(q, now_ms)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', q.alive, '-inf', now_ms)) do
    drop_waiter(q, id)
  end
end

-- Queue waiter `id` at `arrival_us` (a waiter already queued keeps its place; `exclusive`: also
-- among the writers of q.xqueue) and give it `heartbeat` ms from `now_ms` to come back. `info`:
-- what a grant needs (lib/grant.lua), kept for an exclusive waiter when grants are on.
local function enqueue_waiter(q, id, arrival_us, exclusive, now_ms, heartbeat, info)
  if redis.call('ZADD', q.queue, 'NX', arrival_us, id) == 1 and exclusive then
    redis.call('ZADD', q.xqueue, arrival_us, id)
    if q.info and info then
      redis.call('HSET', q.info, id, info)
    end
  end
  redis.call('ZADD', q.alive, now_ms + heartbeat, id)
  -- The queues outlive their last live waiter by one heartbeat at most.
  redis.call('PEXPIRE', q.queue, heartbeat)
  redis.call('PEXPIRE', q.alive, heartbeat)
  if q.xqueue and redis.call('EXISTS', q.xqueue) == 1 then
    redis.call('PEXPIRE', q.xqueue, heartbeat)
  end
  if q.info then
    redis.call('PEXPIRE', q.info, heartbeat)
  end
end
