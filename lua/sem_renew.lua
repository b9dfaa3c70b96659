-- Extend the lease of one semaphore permit, only if OWNER still holds it and it has not
-- expired. Nobody but the holder renews a permit, so a crashed holder's permit runs out.
--
--   redis-cli --eval build/lua/sem_renew.lua dlock:{pool}:sem dlock:{pool}:permits , \
--     OWNER PERMIT TTL_MS
--
-- Returns 1 if renewed, 0 if the permit is no longer ours.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/lease.lua

local sem, permits = KEYS[1], KEYS[2]
local owner, permit, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if not owned_deadline(permits, permit, sem, 'p:' .. permit, owner, now_ms) then
  return 0
end
redis.call('ZADD', permits, 'XX', now_ms + ttl, permit)
extend_expiry({sem, permits}, ttl)
return 1
