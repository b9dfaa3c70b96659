-- lib/compat_reading.lua: another library's lock key as `status --compat` shows it.

-- {type, PTTL, holder...} of `key`: a hash (Redisson) adds each field and its count, a string
-- (the setnx family) its value, any other type (or none: the key is free) nothing more.
local function compat_reading(key)
  local kind = redis.call('TYPE', key).ok
  local out = {kind, redis.call('PTTL', key)}
  if kind == 'hash' then
    for _, v in ipairs(redis.call('HGETALL', key)) do
      out[#out + 1] = v
    end
  elseif kind == 'string' then
    out[#out + 1] = redis.call('GET', key)
  end
  return out
end
