-- Take the exclusive lease on one name, re-enter it, or queue for it in arrival order.
--
--   redis-cli --eval lua/acquire.lua dlock:{job}:lock dlock:{job}:fence dlock:{job}:queue \
--     dlock:{job}:alive dlock:{job}:wake: , OWNER HOLD TTL_MS WAITER HEARTBEAT_MS HOST PID USER CMD
--
-- KEYS: lock hash, fencing counter, waiter queue (zset id -> arrival us), waiter heartbeats
--       (zset id -> deadline ms), prefix of the per-waiter wake lists.
-- ARGV: owner token, hold id (unique per request, so a retried call is a replay, not a second
--       hold), lease ms, waiter id ("" = do not queue), heartbeat ms, holder host/pid/user/cmd.
-- Returns {1, fencing token, holds} when the caller now holds the lease, or
--         {0, pttl ms, host, pid, user, cmd, since ms, fencing token, queued waiters}.
local lock, fence, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, hold, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local waiter, heartbeat = ARGV[4], tonumber(ARGV[5])
local fence_lifetime_ms = 30 * 86400 * 1000

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

-- Waiters whose heartbeat lapsed have crashed or given up: forget them so they block nobody.
local function purge_dead_waiters()
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', alive, '-inf', now_ms)) do
    redis.call('ZREM', queue, id)
    redis.call('ZREM', alive, id)
    redis.call('DEL', wake .. id)
  end
end

local function forget_waiter()
  if waiter ~= '' then
    redis.call('ZREM', queue, waiter)
    redis.call('ZREM', alive, waiter)
    redis.call('DEL', wake .. waiter)
  end
end

local function refuse()
  purge_dead_waiters()
  if waiter ~= '' then
    redis.call('ZADD', queue, 'NX', tonumber(t[1]) * 1000000 + tonumber(t[2]), waiter)
    redis.call('ZADD', alive, now_ms + heartbeat, waiter)
    -- The queue outlives its last live waiter by one heartbeat at most.
    redis.call('PEXPIRE', queue, heartbeat)
    redis.call('PEXPIRE', alive, heartbeat)
  end
  local h = redis.call('HMGET', lock, 'host', 'pid', 'user', 'cmd', 'since', 'fence')
  return {0, redis.call('PTTL', lock), h[1] or '', tonumber(h[2] or 0), h[3] or '', h[4] or '',
          tonumber(h[5] or 0), tonumber(h[6] or 0), redis.call('ZCARD', queue)}
end

local current = redis.call('HGET', lock, 'owner')
if current == owner then
  -- Re-entry by the same owner (or a replay of our own request): one hold per hold id.
  if redis.call('HSETNX', lock, 'h:' .. hold, 1) == 1 then
    redis.call('HINCRBY', lock, 'holds', 1)
  end
  if redis.call('PTTL', lock) < ttl then
    redis.call('PEXPIRE', lock, ttl)
  end
  forget_waiter()
  return {1, tonumber(redis.call('HGET', lock, 'fence')), tonumber(redis.call('HGET', lock, 'holds'))}
end
if current then
  return refuse()
end

-- Free. First come, first served: only the queue head (or anyone, if nobody queues) may take
-- it. The queue is usually empty, so look before purging.
local head = redis.call('ZRANGE', queue, 0, 0)[1]
if head then
  purge_dead_waiters()
  head = redis.call('ZRANGE', queue, 0, 0)[1]
end
if head and head ~= waiter then
  -- The head may have missed its wake-up (e.g. it was reconnecting): nudge it again.
  redis.call('LPUSH', wake .. head, 1)
  redis.call('LTRIM', wake .. head, 0, 0)
  redis.call('PEXPIRE', wake .. head, 2 * heartbeat)
  return refuse()
end

-- Fencing tokens only grow. A missing counter (first use, unused for 30 days, or deleted)
-- restarts from the server clock in microseconds. Scripts run one at a time and each takes
-- longer than a microsecond, so the counter can never get ahead of that clock: a restarted
-- counter is above every token handed out before (unless the server clock goes back).
local token = redis.call('INCR', fence)
if token == 1 then
  token = tonumber(t[1]) * 1000000 + tonumber(t[2])
  redis.call('SET', fence, token)
end
redis.call('PEXPIRE', fence, fence_lifetime_ms)

redis.call('HSET', lock, 'owner', owner, 'holds', 1, 'h:' .. hold, 1, 'fence', token,
           'since', now_ms, 'ttl', ttl, 'host', ARGV[6], 'pid', ARGV[7], 'user', ARGV[8],
           'cmd', ARGV[9])
redis.call('PEXPIRE', lock, ttl)
forget_waiter()
return {1, token, 1}
