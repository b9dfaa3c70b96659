-- Count a latch down by N (never below zero), once per request id: a retried request (same
-- id) is recognised and not counted again. The count-down that reaches zero pushes a token to
-- the wake list of every registered waiter, so all of them proceed.
--
--   redis-cli --eval build/lua/latch_count_down.lua dlock:{job}:latch dlock:{job}:latch-ids \
--     dlock:{job}:latch-waiters dlock:{job}:latch-wake: , N REQUEST_ID WAKE_TTL_MS
--
-- KEYS[1] latch hash, KEYS[2] set of applied request ids (expires with the latch), KEYS[3]
-- zset of waiters (id -> heartbeat deadline, server ms), KEYS[4] prefix of the per-waiter wake
-- lists (KEYS[4] .. waiter id).
-- ARGV[1] N >= 1, ARGV[2] request id, ARGV[3] expiry of a pushed wake list in ms.
-- Returns {status, count, woken}: status 1 counted down, 2 already applied (retry; nothing
-- changed), 0 no such latch. count is the count afterwards; woken the number of waiters woken.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/wake.lua

local latch, ids, waiters, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local n, request, wake_ttl = tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3])

local current = redis.call('HGET', latch, 'count')
if not current then
  return {0, 0, 0}
end
current = tonumber(current)
if redis.call('SISMEMBER', ids, request) == 1 then
  return {2, current, 0}
end
local ttl = redis.call('PTTL', latch)
redis.call('SADD', ids, request)
if ttl > 0 then
  redis.call('PEXPIRE', ids, ttl)
end

local after = current - n
if after < 0 then
  after = 0
end
redis.call('HSET', latch, 'count', after)

local woken = 0
if after == 0 then
  local t = redis.call('TIME')
  local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', waiters, '-inf', now_ms)) do
    redis.call('ZREM', waiters, id)
  end
  for _, id in ipairs(redis.call('ZRANGE', waiters, 0, -1)) do
    wake_up(wake .. id, wake_ttl)
    woken = woken + 1
  end
  redis.call('DEL', waiters)
end
return {1, after, woken}
