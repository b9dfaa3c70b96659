-- `--compat redisson`: Redisson's unlock (RedissonLock.java's unlockInnerAsync): our field
-- absent -> not ours; count - 1; still held -> PEXPIRE the lease; else DEL and PUBLISH 0 on the
-- unlock channel, which wakes Redisson's (and dlock's) waiters at once. The unlock latch
-- `redisson_unlock_latch:{name}:<request>` keeps the first answer for a retry of the same
-- request, as Redisson's does. KEEP_MS > 0 (--min-hold not yet over): the last hold leaves the
-- hash in place that much longer, with no message (it is still held).
--
--   redis-cli --eval build/lua/compat_redisson_release.lua inventory-sync \
--     redisson_lock__channel:{inventory-sync} redisson_unlock_latch:{inventory-sync}:REQ , \
--     FIELD TTL_MS KEEP_MS
--
-- Returns {1 if it was ours, the holds left}.
local key, channel, latch = KEYS[1], KEYS[2], KEYS[3]
local field, ttl, keep = ARGV[1], ARGV[2], tonumber(ARGV[3]) or 0
local done = redis.call('GET', latch)
if done then
  return {1, tonumber(done) or 0}
end
if redis.call('TYPE', key).ok ~= 'hash' or redis.call('HEXISTS', key, field) == 0 then
  return {0, 0}
end
local left = redis.call('HINCRBY', key, field, -1)
if left > 0 then
  redis.call('PEXPIRE', key, ttl)
elseif keep > 0 then
  redis.call('HSET', key, field, 1)
  redis.call('PEXPIRE', key, keep)
else
  redis.call('DEL', key)
  redis.call('PUBLISH', channel, '0')
end
redis.call('SET', latch, left, 'PX', ttl)
return {1, left}
