-- Give a semaphore permit back, or leave its waiting queue (or both), then wake the waiters
-- that this made able to take a permit, and nobody else.
--
--   redis-cli --eval lua/sem_release.lua dlock:{pool}:sem dlock:{pool}:permits \
--     dlock:{pool}:squeue dlock:{pool}:salive dlock:{pool}:swake: , OWNER PERMIT WAITER HEARTBEAT_MS
--
-- PERMIT is released only if OWNER holds it; an unknown, expired or foreign permit frees
-- nothing. PERMIT or WAITER may be "". Idempotent: repeating a call changes nothing more.
-- Returns {1 if PERMIT was ours and is now released (else 0), permits still held}.
local sem, permits, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, permit, waiter, heartbeat = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(redis.call('HGET', sem, 'limit')) or 0
local waiting = redis.call('EXISTS', queue) == 1

-- The waiters that may take a permit when `held` permits are held: the first (limit - held).
local function entitled(held)
  if not waiting or held >= limit then
    return {}
  end
  return redis.call('ZRANGE', queue, 0, limit - held - 1)
end

local before = {}
for _, id in ipairs(entitled(redis.call('ZCARD', permits))) do
  before[id] = true
end

-- Permits of crashed holders come back once their lease has run out.
for _, id in ipairs(redis.call('ZRANGEBYSCORE', permits, '-inf', now_ms)) do
  redis.call('HDEL', sem, 'p:' .. id)
  redis.call('ZREM', permits, id)
end

local released = 0
local info = permit ~= '' and redis.call('HGET', sem, 'p:' .. permit)
if info and string.match(info, '^[^\t]*') == owner then
  redis.call('HDEL', sem, 'p:' .. permit)
  redis.call('ZREM', permits, permit)
  released = 1
end

if waiting then
  if waiter ~= '' then
    redis.call('ZREM', queue, waiter)
    redis.call('ZREM', alive, waiter)
    redis.call('DEL', wake .. waiter)
  end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', alive, '-inf', now_ms)) do
    redis.call('ZREM', queue, id)
    redis.call('ZREM', alive, id)
    redis.call('DEL', wake .. id)
  end
end

local held = redis.call('ZCARD', permits)
for _, id in ipairs(entitled(held)) do
  if not before[id] then
    redis.call('LPUSH', wake .. id, 1)
    redis.call('LTRIM', wake .. id, 0, 0)
    redis.call('PEXPIRE', wake .. id, 2 * heartbeat)
  end
end
if held == 0 and redis.call('EXISTS', queue) == 0 then
  -- Nobody holds or waits: the limit is no longer in force.
  redis.call('DEL', sem)
end
return {released, held}
