-- One round of `dlock latch wait`: check the latch and, while it is not yet zero, register
-- (or refresh) the waiter with a heartbeat deadline stamped with server time. Lapsed waiters
-- (dead processes) are dropped here too. A done or absent latch unregisters the waiter.
--
--   redis-cli --eval build/lua/latch_wait.lua dlock:{job}:latch dlock:{job}:latch-waiters \
--     dlock:{job}:latch-wake: , WAITER_ID HEARTBEAT_MS
--
-- KEYS[1] latch hash, KEYS[2] zset of waiters (id -> heartbeat deadline, server ms), KEYS[3]
-- prefix of the per-waiter wake lists.
-- ARGV[1] waiter id, ARGV[2] how long the registration lives without a refresh, in ms.
-- Returns {status, count}: status 0 no such latch, 1 done (count is zero), 2 registered
-- (count is the current count, above zero).
local latch, waiters, wake = KEYS[1], KEYS[2], KEYS[3]
local waiter, heartbeat = ARGV[1], tonumber(ARGV[2])

local current = redis.call('HGET', latch, 'count')
if not current or tonumber(current) == 0 then
  redis.call('ZREM', waiters, waiter)
  redis.call('DEL', wake .. waiter)
  return {current and 1 or 0, 0}
end

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, id in ipairs(redis.call('ZRANGEBYSCORE', waiters, '-inf', now_ms)) do
  redis.call('ZREM', waiters, id)
  redis.call('DEL', wake .. id)
end
redis.call('ZADD', waiters, now_ms + heartbeat, waiter)
local ttl = redis.call('PTTL', latch)
if ttl > 0 then
  redis.call('PEXPIRE', waiters, ttl)
end
return {2, tonumber(current)}
