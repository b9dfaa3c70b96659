-- A waiter gives up (timeout or signal): leave the queue, and wake whoever can now proceed,
-- so a departing head (or a departing writer that held readers back) never stalls the queue.
--
--   redis-cli --eval lua/leave.lua dlock:{job}:lock dlock:{job}:queue dlock:{job}:alive \
--     dlock:{job}:wake: dlock:{job}:readers dlock:{job}:xqueue , WAITER HEARTBEAT_MS
--
-- Returns 1.
local lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers, xqueue = KEYS[5], KEYS[6]
local waiter, heartbeat = ARGV[1], tonumber(ARGV[2])

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

redis.call('ZREM', queue, waiter)
redis.call('ZREM', xqueue, waiter)
redis.call('ZREM', alive, waiter)
redis.call('DEL', wake .. waiter)
wake_waiters()
return 1
