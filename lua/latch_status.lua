-- Read a latch (changes nothing).
--
--   redis-cli --eval build/lua/latch_status.lua dlock:{job}:latch dlock:{job}:latch-waiters
--
-- KEYS[1] latch hash, KEYS[2] zset of waiters (id -> heartbeat deadline, server ms).
-- Returns {exists, count, initial, ttl_ms, waiters}: exists 1 or 0 (then the rest is 0);
-- waiters counts registrations whose heartbeat has not lapsed.
local latch, waiters = KEYS[1], KEYS[2]
local v = redis.call('HMGET', latch, 'count', 'initial')
if not v[2] then
  return {0, 0, 0, 0, 0}
end
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local live = redis.call('ZCOUNT', waiters, '(' .. now_ms, '+inf')
return {1, tonumber(v[1]), tonumber(v[2]), redis.call('PTTL', latch), live}
