-- Extend a lease, only if OWNER still holds it; never shorten it (a nested holder may have
-- asked for a longer lease). Nobody but the holder itself renews a shared hold.
--
--   redis-cli --eval build/lua/renew.lua dlock:{job}:lock dlock:{job}:readers dlock:{job}:rinfo , \
--     OWNER TTL_MS MODE HOLD
--
-- MODE is "x" (exclusive, default) or "s" (shared, identified by its HOLD id).
-- Returns 1 if renewed, 0 if the lease is no longer ours.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/lease.lua

local lock, readers, rinfo = KEYS[1], KEYS[2], KEYS[3]
local owner, ttl = ARGV[1], tonumber(ARGV[2])

if ARGV[3] == 's' then
  local hold = ARGV[4]
  local t = redis.call('TIME')
  local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local deadline = owned_deadline(readers, hold, rinfo, hold, owner, now_ms)
  if not deadline then
    return 0
  end
  if deadline < now_ms + ttl then
    redis.call('ZADD', readers, 'XX', now_ms + ttl, hold)
  end
  extend_expiry({readers, rinfo}, ARGV[2])
  return 1
end

if redis.call('HGET', lock, 'owner') ~= owner then
  return 0
end
extend_expiry({lock}, ARGV[2])
return 1
