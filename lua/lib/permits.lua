-- lib/permits.lua: a semaphore's permits and its waiters. `s` names its keys: s.sem (hash: limit,
-- p:<permit id> -> holder info), s.permits (zset permit id -> lease deadline ms), and its queue
-- s.queue, s.alive, s.wake (lib/waiters.lua).

--@include lib/waiters.lua
--@include lib/wake.lua

-- The permits of crashed holders come back once their lease has run out (by `now_ms`).
local function drop_expired_permits(s, now_ms)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', s.permits, '-inf', now_ms)) do
    redis.call('HDEL', s.sem, 'p:' .. id)
    redis.call('ZREM', s.permits, id)
  end
end

-- The waiters that may take a permit when `held` permits are held: the first (limit - held).
local function entitled_waiters(s, held)
  if not s.waiting or held >= s.limit then
    return {}
  end
  return redis.call('ZRANGE', s.queue, 0, s.limit - held - 1)
end

-- Before permits are given back: notes in `s` the limit in force and whether anyone waits (the
-- queue is usually empty: no need to look further then), and returns the set of waiters that may
-- take a permit now, for wake_newly_entitled.
local function entitled_before(s)
  s.limit = tonumber(redis.call('HGET', s.sem, 'limit')) or 0
  s.waiting = redis.call('EXISTS', s.queue) == 1
  local before = {}
  for _, id in ipairs(entitled_waiters(s, redis.call('ZCARD', s.permits))) do
    before[id] = true
  end
  return before
end

-- After permits were given back: drops the dead waiters, wakes exactly the waiters now able to
-- take a permit that were not `before` (wake lists live two heartbeats), and deletes the
-- semaphore when nobody holds or waits (the limit is no longer in force). Returns the permits
-- still held and the number of waiters woken.
local function wake_newly_entitled(s, before, now_ms, heartbeat)
  if s.waiting then
    drop_dead_waiters(s, now_ms)
  end
  local held = redis.call('ZCARD', s.permits)
  local woken = 0
  for _, id in ipairs(entitled_waiters(s, held)) do
    if not before[id] then
      wake_up(s.wake .. id, 2 * heartbeat)
      woken = woken + 1
    end
  end
  if held == 0 and redis.call('EXISTS', s.queue) == 0 then
    redis.call('DEL', s.sem)
  end
  return held, woken
end
