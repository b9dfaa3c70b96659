-- Extend a lease, only if OWNER still holds it; never shorten it (a nested holder may have
-- asked for a longer lease). Nobody but the holder itself renews a shared hold.
--
--   redis-cli --eval build/lua/renew.lua dlock:{job}:lock dlock:{job}:readers dlock:{job}:rinfo \
--     dlock:{job}:history , OWNER TTL_MS MODE HOLD FENCE
--
-- MODE is "x" (exclusive, default) or "s" (shared, identified by its HOLD id). The history key
-- and FENCE (the lease's fencing token) are optional: with both, a lease that is no longer ours
-- is looked for among the `release --force` events of the history.
-- Returns 1 if renewed, 0 if the lease is no longer ours, or {0, host, pid, user, time ms} when
-- it is not because `dlock release --force` broke it: the forcer, and when (server time).

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/lease.lua
--@include lib/force_history.lua

local lock, readers, rinfo, history = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local owner, ttl, fence = ARGV[1], tonumber(ARGV[2]), ARGV[5]

-- Only on the rare "not ours" path: a renewal that succeeds reads nothing more.
local function not_ours()
  if history and fence and fence ~= '' and fence ~= '0' then
    local forced = find_force(history, fence)
    if forced then
      return {0, forced[1], forced[2], forced[3], forced[4]}
    end
  end
  return 0
end

if ARGV[3] == 's' then
  local hold = ARGV[4]
  local t = redis.call('TIME')
  local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local deadline = owned_deadline(readers, hold, rinfo, hold, owner, now_ms)
  if not deadline then
    return not_ours()
  end
  if deadline < now_ms + ttl then
    redis.call('ZADD', readers, 'XX', now_ms + ttl, hold)
  end
  extend_expiry({readers, rinfo}, ARGV[2])
  return 1
end

if redis.call('HGET', lock, 'owner') ~= owner then
  return not_ours()
end
extend_expiry({lock}, ARGV[2])
return 1
