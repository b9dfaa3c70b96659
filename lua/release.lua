-- Drop one hold on a lease. The last exclusive hold deletes the lock, the last shared hold
-- leaves it to writers; then the waiters that can proceed are woken.
--
--   redis-cli --eval lua/release.lua dlock:{job}:lock dlock:{job}:queue dlock:{job}:alive \
--     dlock:{job}:wake: dlock:{job}:readers dlock:{job}:rinfo dlock:{job}:xqueue , \
--     OWNER HOLD HEARTBEAT_MS MODE
--
-- MODE is 'x' (exclusive, default) or 's' (shared). Idempotent: releasing the same hold id
-- twice changes nothing the second time.
-- Returns {1, holds the owner has left} if the hold was ours (0 = none left), {0, 0} if it was
-- not (expired, force-released or never taken).
local lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers, rinfo, xqueue = KEYS[5], KEYS[6], KEYS[7]
local owner, hold, heartbeat = ARGV[1], ARGV[2], tonumber(ARGV[3])

-- Wake the waiters that can now proceed, and only those: the head if it is a writer and
-- nothing is held, or every reader queued before the first writer if no writer holds.
-- The queue is usually empty, so look before purging.
local function wake_waiters()
  if not redis.call('ZRANGE', queue, 0, 0)[1] or redis.call('EXISTS', lock) == 1 then
    return
  end
  local t = redis.call('TIME')
  local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', alive, '-inf', now_ms)) do
    redis.call('ZREM', queue, id)
    redis.call('ZREM', xqueue, id)
    redis.call('ZREM', alive, id)
    redis.call('DEL', wake .. id)
  end
  local head = redis.call('ZRANGE', queue, 0, 0)[1]
  if not head then
    return
  end
  local woken
  if redis.call('ZSCORE', xqueue, head) then
    if redis.call('ZCOUNT', readers, '(' .. now_ms, '+inf') > 0 then
      return
    end
    woken = {head}
  else
    local writer = redis.call('ZRANGE', xqueue, 0, 0, 'WITHSCORES')
    woken = redis.call('ZRANGEBYSCORE', queue, '-inf', writer[2] and '(' .. writer[2] or '+inf')
  end
  for _, id in ipairs(woken) do
    redis.call('LPUSH', wake .. id, 1)
    redis.call('LTRIM', wake .. id, 0, 0)
    redis.call('PEXPIRE', wake .. id, 2 * heartbeat)
  end
end

if ARGV[4] == 's' then
  local info = redis.call('HGET', rinfo, hold)
  if not info or string.match(info, '^[^\t]*') ~= owner then
    wake_waiters()
    return {0, 0}
  end
  redis.call('ZREM', readers, hold)
  redis.call('HDEL', rinfo, hold)
  local left = redis.call('HINCRBY', rinfo, 'o:' .. owner, -1)
  if left <= 0 then
    redis.call('HDEL', rinfo, 'o:' .. owner)
    left = 0
  end
  wake_waiters()
  return {1, left}
end

local h = redis.call('HMGET', lock, 'owner', 'holds', 'h:' .. hold)
if h[1] ~= owner then
  if not h[1] then
    wake_waiters()
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
wake_waiters()
return {1, 0}
