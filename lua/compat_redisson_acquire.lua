-- `--compat redisson`: take a Redisson RLock (RedissonLock.java's tryLockInnerAsync): a hash
-- `<name>` with one field `<uuid>:<thread>` holding the reentrant count. Free, or ours: count
-- + 1 and the lease renewed; another's: its PTTL, which a waiter sleeps at most (Redisson's rule).
-- REPLAY = 1 when this is the same request sent again after its reply was lost: a field already
-- there is that request's hold, not a re-entry (Redisson counts it twice: its issue #7367).
--
--   redis-cli --eval build/lua/compat_redisson_acquire.lua inventory-sync , FIELD TTL_MS REPLAY
--
-- Returns {1, our count} when taken; {0, ms left (-1: no expiry), a holder's field ("" when the
-- key is not a hash), its count} when another holds it.
local key, field, ttl, replay = KEYS[1], ARGV[1], ARGV[2], ARGV[3] == '1'
local kind = redis.call('TYPE', key).ok
if kind == 'none' or (kind == 'hash' and redis.call('HEXISTS', key, field) == 1) then
  local count
  if kind == 'hash' and replay then
    count = tonumber(redis.call('HGET', key, field)) or 1
  else
    count = redis.call('HINCRBY', key, field, 1)
  end
  redis.call('PEXPIRE', key, ttl)
  return {1, count}
end
local holder, count = '', 0
if kind == 'hash' then
  local all = redis.call('HGETALL', key)
  if #all >= 2 then
    holder, count = all[1], tonumber(all[2]) or 0
  end
end
return {0, redis.call('PTTL', key), holder, count}
