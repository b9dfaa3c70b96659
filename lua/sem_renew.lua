-- Extend the lease of one semaphore permit, only if OWNER still holds it and it has not
-- expired. Nobody but the holder renews a permit, so a crashed holder's permit runs out.
--
--   redis-cli --eval lua/sem_renew.lua dlock:{pool}:sem dlock:{pool}:permits , OWNER PERMIT TTL_MS
--
-- Returns 1 if renewed, 0 if the permit is no longer ours.
local sem, permits = KEYS[1], KEYS[2]
local owner, permit, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local deadline = tonumber(redis.call('ZSCORE', permits, permit))
local info = redis.call('HGET', sem, 'p:' .. permit)
if not deadline or deadline <= now_ms or not info or string.match(info, '^[^\t]*') ~= owner then
  return 0
end
redis.call('ZADD', permits, 'XX', now_ms + ttl, permit)
for _, key in ipairs({sem, permits}) do
  if redis.call('PTTL', key) < ttl then
    redis.call('PEXPIRE', key, ttl)
  end
end
return 1
