-- Drop one hold on an exclusive lease; the last hold deletes it and wakes the queue head.
--
--   redis-cli --eval lua/release.lua dlock:{job}:lock dlock:{job}:queue dlock:{job}:alive \
--     dlock:{job}:wake: , OWNER HOLD HEARTBEAT_MS
--
-- Idempotent: releasing the same hold id twice changes nothing the second time.
-- Returns {1, holds left} if the lease was ours (0 = now free), {0, 0} if it was not
-- (expired, force-released or never taken).
local lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local owner, hold, heartbeat = ARGV[1], ARGV[2], tonumber(ARGV[3])

-- Wake the first live waiter. The queue is usually empty, so look before purging.
local function wake_head()
  local head = redis.call('ZRANGE', queue, 0, 0)[1]
  if not head then
    return
  end
  local t = redis.call('TIME')
  local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', alive, '-inf', now_ms)) do
    redis.call('ZREM', queue, id)
    redis.call('ZREM', alive, id)
    redis.call('DEL', wake .. id)
  end
  head = redis.call('ZRANGE', queue, 0, 0)[1]
  if head then
    redis.call('LPUSH', wake .. head, 1)
    redis.call('LTRIM', wake .. head, 0, 0)
    redis.call('PEXPIRE', wake .. head, 2 * heartbeat)
  end
end

local h = redis.call('HMGET', lock, 'owner', 'holds', 'h:' .. hold)
if h[1] ~= owner then
  if not h[1] then
    wake_head()
  end
  return {0, 0}
end
local holds = tonumber(h[2])
if not h[3] then
  -- This hold was already released (a retried request): nothing changes.
  return {1, holds}
end
if holds > 1 then
  redis.call('HDEL', lock, 'h:' .. hold)
  return {1, redis.call('HINCRBY', lock, 'holds', -1)}
end
redis.call('DEL', lock)
wake_head()
return {1, 0}
