-- Take one of LIMIT permits of a semaphore, or queue for one in arrival order.
--
--   redis-cli --eval build/lua/sem_acquire.lua dlock:{pool}:sem dlock:{pool}:permits \
--     dlock:{pool}:fence dlock:{pool}:squeue dlock:{pool}:salive dlock:{pool}:swake: , \
--     OWNER PERMIT TTL_MS WAITER HEARTBEAT_MS LIMIT HOST PID USER CMD
--
-- KEYS: semaphore hash (limit, p:<permit> -> holder), permits (zset permit -> lease deadline
--       ms), fencing counter, waiter queue (zset id -> arrival us), waiter heartbeats (zset id ->
--       deadline ms), prefix of the per-waiter wake lists.
-- ARGV: owner token, permit id (unique per request, so a retried call is a replay), lease ms,
--       waiter id ("" = do not queue), heartbeat ms, the caller's LIMIT, holder host/pid/user/cmd.
-- Returns {1, fencing token, permits held} when the caller now holds permit PERMIT,
--         {-1, limit in force, permits held} when holders exist under a different limit
--          (nothing changed; a queued caller has left the queue), or
--         {0, ms until the first permit may expire (-1: none held; when one is free but others
--          are queued first: until the first heartbeat in the queue may lapse), limit, permits held,
--          queued waiters, then host, pid, user, cmd, since ms, fence of up to 5 holders}.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/waiters.lua
--@include lib/wake.lua
--@include lib/permits.lua
--@include lib/fence.lua
--@include lib/lease.lua
--@include lib/holder.lua

local sem, permits, fence, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local owner, permit, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local waiter, heartbeat, limit = ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
local shown_holders = 5
local s = {sem = sem, permits = permits, queue = queue, alive = alive, wake = wake}

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

drop_expired_permits(s, now_ms)

local function forget_waiter()
  if waiter ~= '' then
    drop_waiter(s, waiter)
  end
end

-- Push a wake token to the first `count` waiters: they may take a permit but have not come
-- for it (they missed a wake-up, or an expired permit came back without a release).
local function nudge(count)
  if count <= 0 then
    return
  end
  for _, id in ipairs(redis.call('ZRANGE', queue, 0, count - 1)) do
    if id ~= waiter then
      wake_up(wake .. id, 2 * heartbeat)
    end
  end
end

local mine = redis.call('HGET', sem, 'p:' .. permit)
if mine then
  -- A replay of an acquire that already succeeded.
  forget_waiter()
  return {1, tonumber(tab_fields(mine)[7]), redis.call('ZCARD', permits)}
end

local held = redis.call('ZCARD', permits)
local in_force = tonumber(redis.call('HGET', sem, 'limit'))
if held > 0 and in_force and in_force ~= limit then
  forget_waiter()
  nudge(in_force - held)
  return {-1, in_force, held}
end

-- Waiters whose heartbeat lapsed have crashed or given up: forget them so they block nobody.
-- The queue is usually empty, so look before purging.
local queued = redis.call('ZCARD', queue)
if queued > 0 then
  drop_dead_waiters(s, now_ms)
  queued = redis.call('ZCARD', queue)
end

-- First come, first served: the caller may take a free permit only if fewer waiters are
-- queued before it than permits are free.
local free = limit - held
local ahead = queued
if waiter ~= '' then
  ahead = redis.call('ZRANK', queue, waiter) or queued
end

if ahead < free then
  local token = next_fence(fence, t)
  redis.call('HSET', sem, 'limit', limit, 'p:' .. permit,
             holder_info(owner, ARGV[7], ARGV[8], ARGV[9], ARGV[10], now_ms, token))
  redis.call('ZADD', permits, now_ms + ttl, permit)
  -- The semaphore outlives the longest lease, and vanishes when abandoned.
  extend_expiry({sem, permits}, ttl)
  forget_waiter()
  return {1, token, held + 1}
end

nudge(free) -- all of them are ahead of the caller
if waiter ~= '' then
  enqueue_waiter(s, waiter, tonumber(t[1]) * 1000000 + tonumber(t[2]), false, now_ms, heartbeat)
end
local first = redis.call('ZRANGE', permits, 0, 0, 'WITHSCORES')
local left = first[2] and tonumber(first[2]) - now_ms or -1
if free > 0 then
  -- A permit is free, but others are queued first. They may be dead: wait at most until the
  -- first heartbeat in the queue lapses, when a dead waiter is dropped.
  local oldest = redis.call('ZRANGE', alive, 0, 0, 'WITHSCORES')
  if oldest[2] then
    left = tonumber(oldest[2]) - now_ms
  end
end
local reply = {0, left, held > 0 and in_force or limit, held, redis.call('ZCARD', queue)}
for _, id in ipairs(redis.call('ZRANGE', permits, 0, shown_holders - 1)) do
  local f = holder_fields(redis.call('HGET', sem, 'p:' .. id) or '')
  for i = 2, 7 do
    reply[#reply + 1] = f[i]
  end
end
return reply
