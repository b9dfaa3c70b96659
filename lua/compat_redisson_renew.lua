-- `--compat redisson`: the watchdog's renewal (RedissonBaseLock.java's renewExpirationAsync):
-- PEXPIRE only while our field is still in the hash.
--
--   redis-cli --eval build/lua/compat_redisson_renew.lua inventory-sync , FIELD TTL_MS
--
-- Returns 1 if renewed, 0 if the hash or our field is gone (the lease is lost).
local key, field = KEYS[1], ARGV[1]
if redis.call('TYPE', key).ok ~= 'hash' or redis.call('HEXISTS', key, field) == 0 then
  return 0
end
redis.call('PEXPIRE', key, ARGV[2])
return 1
