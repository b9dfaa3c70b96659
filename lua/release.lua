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

local function wake_head()
  local t = redis.call('TIME')
  local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', alive, '-inf', now_ms)) do
    redis.call('ZREM', queue, id)
    redis.call('ZREM', alive, id)
    redis.call('DEL', wake .. id)
  end
  local head = redis.call('ZRANGE', queue, 0, 0)[1]
  if head then
    redis.call('LPUSH', wake .. head, 1)
    redis.call('LTRIM', wake .. head, 0, 0)
    redis.call('PEXPIRE', wake .. head, 2 * heartbeat)
  end
end

local current = redis.call('HGET', lock, 'owner')
if current ~= owner then
  if not current then
    wake_head()
  end
  return {0, 0}
end
if redis.call('HDEL', lock, 'h:' .. hold) == 1 then
  redis.call('HINCRBY', lock, 'holds', -1)
end
local holds = tonumber(redis.call('HGET', lock, 'holds'))
if holds > 0 then
  return {1, holds}
end
redis.call('DEL', lock)
wake_head()
return {1, 0}
