-- lib/lock_wake.lua: wake a lock's waiters once the lock was released or a waiter left.

--@include lib/waiters.lua
--@include lib/wake.lua
--@include lib/grant.lua

-- Wake the waiters that can now proceed, and only those: the head if it is a writer and nothing
-- is held (granted the lock when grants are on: lib/grant.lua), or every reader queued before
-- the first writer if no writer holds. `q`: the queue
-- (lib/waiters.lua); `lock`: the exclusive holder hash; `readers`: the shared holds (zset hold id
-- -> deadline ms); wake lists live two heartbeats. The queue is usually empty, so look before
-- purging.
local function wake_lock_waiters(q, lock, readers, heartbeat)
  if not redis.call('ZRANGE', q.queue, 0, 0)[1] or redis.call('EXISTS', lock) == 1 then
    return
  end
  local t = redis.call('TIME')
  local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  drop_dead_waiters(q, now_ms)
  local head = redis.call('ZRANGE', q.queue, 0, 0)[1]
  if not head then
    return
  end
  local woken
  if redis.call('ZSCORE', q.xqueue, head) then
    if redis.call('ZCOUNT', readers, '(' .. now_ms, '+inf') > 0 then
      return
    end
    if grant_lock(q, lock, head, t, now_ms) then
      return
    end
    woken = {head}
  else
    local writer = redis.call('ZRANGE', q.xqueue, 0, 0, 'WITHSCORES')
    woken = redis.call('ZRANGEBYSCORE', q.queue, '-inf', writer[2] and '(' .. writer[2] or '+inf')
  end
  for _, id in ipairs(woken) do
    wake_up(q.wake .. id, 2 * heartbeat)
  end
end
