-- lib/wake.lua: wake one waiter.

-- Push a token to `list`, the wake list a waiter blocks on (BLPOP). One token is enough, so the
-- list keeps one; it expires after `ttl_ms`, so a token nobody takes does not stay behind.
local function wake_up(list, ttl_ms)
  redis.call('LPUSH', list, 1)
  redis.call('LTRIM', list, 0, 0)
  redis.call('PEXPIRE', list, ttl_ms)
end
