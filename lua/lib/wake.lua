-- lib/wake.lua: wake one waiter.

-- Push `token` to `list`, the wake list a waiter blocks on (BLPOP). One token is enough, so the
-- list keeps one; it expires after `ttl_ms`, so a token nobody takes does not stay behind.
-- Tokens: 1, "ask again"; "n", "you are next: come back within a heartbeat" (lib/grant.lua).
local function wake_with(list, token, ttl_ms)
  redis.call('LPUSH', list, token)
  redis.call('LTRIM', list, 0, 0)
  redis.call('PEXPIRE', list, ttl_ms)
end

local function wake_up(list, ttl_ms)
  wake_with(list, 1, ttl_ms)
end
