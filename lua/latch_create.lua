-- Create a count-down latch, or refresh the TTL of an existing one with the same initial count
-- (idempotent: every host may run the same `dlock latch create`). The current count of an
-- existing latch is left alone, even when it already reached zero ("done").
--
--   redis-cli --eval build/lua/latch_create.lua dlock:{job}:latch dlock:{job}:latch-ids \
--     dlock:{job}:latch-waiters , COUNT TTL_MS
--
-- KEYS[1] latch hash (count, initial, created = server ms), KEYS[2] set of applied count-down
-- request ids, KEYS[3] zset of waiters (id -> heartbeat deadline, server ms).
-- ARGV[1] COUNT (1..1e9), ARGV[2] TTL in ms.
-- Returns {status, count, initial}: status 1 created, 0 existed with the same COUNT (TTL
-- refreshed), -1 exists with a different initial count (nothing changed).
local latch, ids, waiters = KEYS[1], KEYS[2], KEYS[3]
local count, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])

local existing = redis.call('HMGET', latch, 'count', 'initial')
if existing[2] then
  local current, initial = tonumber(existing[1]), tonumber(existing[2])
  if initial ~= count then
    return {-1, current, initial}
  end
  redis.call('PEXPIRE', latch, ttl)
  redis.call('PEXPIRE', ids, ttl)
  redis.call('PEXPIRE', waiters, ttl)
  return {0, current, initial}
end

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('DEL', ids)
redis.call('HSET', latch, 'count', count, 'initial', count, 'created', now_ms)
redis.call('PEXPIRE', latch, ttl)
redis.call('PEXPIRE', waiters, ttl)
return {1, count, count}
