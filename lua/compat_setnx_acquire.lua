-- `--compat setnx`: take a plain string lock the way redis-py's Lock, node-redlock, redsync and
-- Spring's RedisLockRegistry do (SET NX PX with a unique owner value), so dlock and such a
-- service exclude each other. Our own value already there (a retried call whose reply was lost)
-- is a grant again, renewed: the replay finds what the first call did.
--
--   redis-cli --eval build/lua/compat_setnx_acquire.lua report:daily , TOKEN TTL_MS
--
-- KEYS[1]: the other side's key, as it names it. ARGV: our owner value, the lease in ms.
-- Returns {1} when taken (or already ours); {0, ms left (-1: no expiry), the holder's value
-- ("" when the key is not a string)} when another holds it.
local key, token, ttl = KEYS[1], ARGV[1], ARGV[2]
if redis.call('SET', key, token, 'NX', 'PX', ttl) then
  return {1}
end
local kind = redis.call('TYPE', key).ok
if kind == 'string' and redis.call('GET', key) == token then
  redis.call('PEXPIRE', key, ttl)
  return {1}
end
local holder = ''
if kind == 'string' then
  holder = redis.call('GET', key)
end
return {0, redis.call('PTTL', key), holder}
