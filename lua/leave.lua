-- A waiter gives up (timeout or signal): leave the queue, and if the lock is free pass the
-- wake-up on to the new head so a departing head never stalls the queue.
--
--   redis-cli --eval lua/leave.lua dlock:{job}:lock dlock:{job}:queue dlock:{job}:alive \
--     dlock:{job}:wake: , WAITER HEARTBEAT_MS
--
-- Returns 1.
local lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local waiter, heartbeat = ARGV[1], tonumber(ARGV[2])

redis.call('ZREM', queue, waiter)
redis.call('ZREM', alive, waiter)
redis.call('DEL', wake .. waiter)
if redis.call('EXISTS', lock) == 1 then
  return 1
end
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
return 1
