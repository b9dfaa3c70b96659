-- lib/fence.lua: fencing tokens.

-- The next token of the fencing counter `fence`; `t` is the server's TIME. Tokens only grow. A
-- missing counter (first use, unused for 30 days, or deleted) restarts from the server clock in
-- microseconds. Scripts run one at a time and each takes longer than a microsecond, so the
-- counter can never get ahead of that clock: a restarted counter is above every token handed out
-- before (unless the server clock goes back).
--
-- So a counter more than a year ahead of the clock (365 days in us; Redlock commits may put it
-- ahead by the members' clock skew, never by that much), or one INCR cannot step (at the int64
-- limit, or not an integer), was poisoned: written by hand, or committed by an older dlock under
-- Redlock. It restarts from the clock like a missing one, which is still above every token an
-- honest holder got, instead of failing every acquire of the name for 30 days. INCR is the
-- first write of the acquisition and leaves the counter alone when it fails (pcall), so nothing
-- is half done. Common case: one comparison more.
local function next_fence(fence, t)
  local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local token = redis.pcall('INCR', fence)
  if type(token) ~= 'number' or token <= 1 or token > now_us + 31536000000000 then
    if token ~= 1 then
      redis.log(redis.LOG_WARNING, 'dlock: fencing counter ' .. fence .. ' was ' ..
                (type(token) == 'number' and string.format('%.0f', token - 1) or 'broken') ..
                ': restarted from the server clock')
    end
    token = now_us
    redis.call('SET', fence, token)
  end
  redis.call('PEXPIRE', fence, '2592000000') -- 30 days; a string spares Redis a printf
  return token
end
