-- Redlock's second round: commit the fencing token T chosen from the first round's counters on a
-- member where OWNER still holds the lock, so that any later majority meets a counter >= T.
--
--   redis-cli --eval build/lua/fence_commit.lua dlock:{job}:lock dlock:{job}:fence , OWNER TOKEN
--
-- KEYS: the lock hash, the fencing counter. ARGV: owner token, the token T (digits).
-- Returns 1 when committed (the counter is now at least T and the hold records T), 0 when the
-- lock is not OWNER's here (it expired, or was never taken on this member): nothing changed.

local lock, fence = KEYS[1], KEYS[2]
local owner, digits = ARGV[1], ARGV[2]
local token = tonumber(digits)

if redis.call('HGET', lock, 'owner') ~= owner then
  return 0
end
if (tonumber(redis.call('GET', fence)) or 0) < token then
  redis.call('SET', fence, digits)
end
redis.call('PEXPIRE', fence, 30 * 86400 * 1000)
redis.call('HSET', lock, 'fence', digits)
return 1
