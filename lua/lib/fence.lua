-- lib/fence.lua: fencing tokens.

-- The next token of the fencing counter `fence`; `t` is the server's TIME. Tokens only grow. A
-- missing counter (first use, unused for 30 days, or deleted) restarts from the server clock in
-- microseconds. Scripts run one at a time and each takes longer than a microsecond, so the
-- counter can never get ahead of that clock: a restarted counter is above every token handed out
-- before (unless the server clock goes back).
local function next_fence(fence, t)
  local token = redis.call('INCR', fence)
  if token == 1 then
    token = tonumber(t[1]) * 1000000 + tonumber(t[2])
    redis.call('SET', fence, token)
  end
  redis.call('PEXPIRE', fence, 30 * 86400 * 1000)
  return token
end
