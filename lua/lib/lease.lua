-- lib/lease.lua: leases kept as a zset of deadlines (shared holds, semaphore permits) and the
-- expiry of the keys that hold them.

--@include lib/holder.lua

-- The lease deadline (ms) of hold `id` in zset `holds` if it is live at `now_ms` and `owner`
-- holds it (its holder info string is field `info_field` of hash `infos`), else nil.
local function owned_deadline(holds, id, infos, info_field, owner, now_ms)
  local deadline = tonumber(redis.call('ZSCORE', holds, id))
  local info = redis.call('HGET', infos, info_field)
  if not deadline or deadline <= now_ms or not info or holder_owner(info) ~= owner then
    return nil
  end
  return deadline
end

-- Make each of `keys` live at least `ttl_ms` more; never shorten one (another holder may have
-- asked for a longer lease). `ttl_ms` is best given as the caller's argument string: Redis formats
-- a Lua number argument with a costly printf.
local function extend_expiry(keys, ttl_ms)
  for _, key in ipairs(keys) do
    if redis.call('PTTL', key) < tonumber(ttl_ms) then
      redis.call('PEXPIRE', key, ttl_ms)
    end
  end
end
