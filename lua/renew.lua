-- Extend an exclusive lease, only if OWNER still holds it. Never shortens it (a nested holder
-- may have asked for a longer lease).
--
--   redis-cli --eval lua/renew.lua dlock:{job}:lock , OWNER TTL_MS
--
-- Returns 1 if renewed, 0 if the lease is no longer ours.
local lock, owner, ttl = KEYS[1], ARGV[1], tonumber(ARGV[2])
if redis.call('HGET', lock, 'owner') ~= owner then
  return 0
end
if redis.call('PTTL', lock) < ttl then
  redis.call('PEXPIRE', lock, ttl)
end
return 1
