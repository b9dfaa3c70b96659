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

-- A deep exclusive waiter may stay silent longer: WINDOW_STEP places ahead add one heartbeat, up
-- to MAX_WINDOWS heartbeats. It is no longer silent once near the head: a grant cuts the new
-- head's deadline back to one heartbeat and nudges it (lib/grant.lua).
local WINDOW_STEP, MAX_WINDOWS = 4, 20 -- MAX_WINDOWS: also kMaxHeartbeatWindows (lock/backend.hpp)

-- Queue waiter `id` at `arrival_us` (a waiter already queued keeps its place; `exclusive`: also
-- among the writers of q.xqueue) and give it until its deadline to come back: `heartbeat` ms from
-- `now_ms`, or, for an exclusive waiter when grants are on, more the deeper it is in the queue.
-- `info`: what a grant needs (lib/grant.lua), kept for an exclusive waiter when grants are on.
-- Returns the ms the waiter may stay silent.
local function enqueue_waiter(q, id, arrival_us, exclusive, now_ms, heartbeat, info)
  local added = redis.call('ZADD', q.queue, 'NX', arrival_us, id) == 1
  if added and exclusive then
    redis.call('ZADD', q.xqueue, arrival_us, id)
    if q.info and info then
      redis.call('HSET', q.info, id, info)
    end
  end
  local window = heartbeat
  if q.info and exclusive then
    local ahead = redis.call('ZRANK', q.queue, id)
    window = heartbeat * math.max(1, math.min(MAX_WINDOWS, math.floor(ahead / WINDOW_STEP)))
  end
  redis.call('ZADD', q.alive, now_ms + window, id)
  -- The queue's keys expire with the last deadline in it (new keys get one at once).
  local left = redis.call('PTTL', q.queue)
  if added or left < window then
    for _, key in ipairs({q.queue, q.alive, q.xqueue or false, q.info or false}) do
      if key then
        redis.call('PEXPIRE', key, math.max(left, window))
      end
    end
  end
  return window
end
