-- Create a count-down latch, or refresh the TTL of an existing one with the same initial count
-- (idempotent: every host may run the same `dlock latch create`). The current count of an
-- existing latch is left alone; one that already reached zero is refused, since every later
-- wait would pass at once. With a reset id (`latch create --reset`), a new round starts at
-- COUNT whatever the current state: the count and initial are set, applied count-down ids are
-- forgotten, and waiters still registered stay so, now waiting for the new round. The reset id
-- is kept in the hash, so a retried reset (same id) does not start yet another round.
--
--   redis-cli --eval build/lua/latch_create.lua dlock:{job}:latch dlock:{job}:latch-ids \
--     dlock:{job}:latch-waiters , COUNT TTL_MS [RESET_ID]
--
-- KEYS[1] latch hash (count, initial, created = server ms, round = last reset id), KEYS[2] set
-- of applied count-down request ids, KEYS[3] zset of waiters (id -> heartbeat deadline, server
-- ms).
-- ARGV[1] COUNT (1..1e9), ARGV[2] TTL in ms, ARGV[3] reset id (absent or empty: no reset).
-- Returns {status, count, initial}: status 1 created, 0 existed with the same COUNT (TTL
-- refreshed), -1 exists with a different initial count (nothing changed), -2 exists and reached
-- zero (nothing changed), 2 a new round started over an existing latch (count and initial are
-- the previous round's, or the new ones when this reset id was already applied).
local latch, ids, waiters = KEYS[1], KEYS[2], KEYS[3]
local count, ttl, reset = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3] or ''

local existing = redis.call('HMGET', latch, 'count', 'initial', 'round')
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

if existing[2] then
  local current, initial = tonumber(existing[1]), tonumber(existing[2])
  if reset ~= '' then
    if existing[3] ~= reset then
      redis.call('DEL', ids)
      redis.call('HSET', latch, 'count', count, 'initial', count, 'created', now_ms,
                 'round', reset)
    end
    redis.call('PEXPIRE', latch, ttl)
    redis.call('PEXPIRE', waiters, ttl)
    return {2, current, initial}
  end
  if initial ~= count then
    return {-1, current, initial}
  end
  if current == 0 then
    return {-2, current, initial}
  end
  redis.call('PEXPIRE', latch, ttl)
  redis.call('PEXPIRE', ids, ttl)
  redis.call('PEXPIRE', waiters, ttl)
  return {0, current, initial}
end

redis.call('DEL', ids)
redis.call('HSET', latch, 'count', count, 'initial', count, 'created', now_ms)
if reset ~= '' then
  redis.call('HSET', latch, 'round', reset)
end
redis.call('PEXPIRE', latch, ttl)
redis.call('PEXPIRE', waiters, ttl)
return {1, count, count}
