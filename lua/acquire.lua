-- Take the lease on one name, exclusive or shared, re-enter it, or queue for it in arrival order.
--
--   redis-cli --eval build/lua/acquire.lua dlock:{job}:lock dlock:{job}:fence dlock:{job}:queue \
--     dlock:{job}:alive dlock:{job}:wake: dlock:{job}:readers dlock:{job}:rinfo \
--     dlock:{job}:xqueue dlock:{job}:history dlock:{job}:runs dlock:{job}:paused \
--     dlock:{job}:winfo , OWNER HOLD \
--     TTL_MS WAITER HEARTBEAT_MS HOST PID USER CMD MODE FINAL
--
-- KEYS: exclusive holder hash, fencing counter, waiter queue (zset id -> arrival us), waiter
--       heartbeats (zset id -> deadline ms), prefix of the per-waiter wake lists, shared holds
--       (zset hold id -> deadline ms), shared hold info (hash), exclusive waiters (zset), and
--       optionally the history stream: a new acquisition, and the refusal of a caller that does
--       not queue (WAITER "": its final answer), are recorded there; optionally the run
--       counters (lib/runs.lua), where that refusal counts as skipped_busy; optionally the pause
--       of the name (hash, lua/pause.lua); optionally the waiters' details (hash): given (after
--       the pause), grants are on
--       (lib/grant.lua): an exclusive waiter leaves there what a release needs to hand it the
--       lock.
-- ARGV: owner token, hold id (unique per request, so a retried call is a replay, not a second
--       hold), lease ms, waiter id ("" = do not queue), heartbeat ms, holder host/pid/user/cmd,
--       mode "x" (exclusive, default) or "s" (shared), and "0" when a refusal without a queue is
--       not the caller's final answer (a Redlock waiter's round): nothing is recorded then.
-- Returns {1, fencing token, holds, granted mode} when the caller now holds the lease,
--         {0, ms until the blocking lease may expire (when free but others are queued first:
--          until the first heartbeat in the queue may lapse), host, pid, user, cmd, since ms, fencing
--          token, queued waiters, shared holders, held until} when not (host... describe the
--          exclusive holder, or the oldest shared holder; "held until" is the server ms until
--          which a finished holder's --min-hold keeps the lease, else 0; then the ms a queued
--          caller may stay silent before it counts as dead, 0 if not queued), or
--         {-1} for an exclusive request by an owner holding the name shared (no upgrades), or
--         {-2, paused until ms (0: no end), paused by, host, reason, since ms, recorded} when the
--         name is paused: a new hold is refused whatever the caller's wait, and the caller
--         leaves the queue. A re-entry or a replay by an owner that holds it is not refused.
--         Recorded (1) in the history as a skip and counted as skipped_paused unless FINAL is
--         "0" (the caller records its final answer itself).
--         When the history could not be written, its error is appended to the reply.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys").
-- The uncontended path needs only the first two; the others are included after it, so that it
-- returns before Redis creates their functions (which it does on every call, and which cost
-- about as much as a few commands).
--@include lib/fence.lua
--@include lib/history.lua

local lock, fence, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local readers, rinfo, xqueue = KEYS[6], KEYS[7], KEYS[8]
local owner, hold, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
local waiter, heartbeat = ARGV[4], tonumber(ARGV[5])
local shared = ARGV[10] == 's'
local history, paused = KEYS[9], KEYS[11]

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- now_ms as digits, for the arguments of redis.call: a Lua number there costs Redis a printf.
local now_digits = t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000))

-- Records a new acquisition; it never fails it (lib/history.lua). Empty fields are left out;
-- only the caller's own can be, and usually none is.
local function record_acquired(mode, token_digits)
  local all = ARGV[6] ~= '' and ARGV[7] ~= '' and ARGV[8] ~= '' and ARGV[9] ~= ''
  local add = all and history_add or history_add_present
  return add(history, 'event', 'acquire', 'mode', mode, 'host', ARGV[6], 'pid', ARGV[7],
             'user', ARGV[8], 'command', ARGV[9], 'fence', token_digits, 'start_ms', now_digits)
end

-- Takes the free lease exclusively: a new acquisition.
local function take_exclusive()
  local token = next_fence(fence, t)
  local token_digits = ms(token)
  redis.call('HSET', lock, 'owner', owner, 'holds', '1', 'h:' .. hold, '1', 'fence', token_digits,
             'since', now_digits, 'ttl', ARGV[3], 'host', ARGV[6], 'pid', ARGV[7], 'user', ARGV[8],
             'cmd', ARGV[9])
  redis.call('PEXPIRE', lock, ARGV[3])
  return with_error({1, token, 1, 'x'}, record_acquired('x', token_digits))
end

-- Usually nobody holds, reads or queues: one look at the three keys (a missing key holds nobody)
-- then spares the ownership, reader and queue checks, and the caller has no queue entry either.
local idle
if paused then
  idle = redis.call('EXISTS', lock, readers, queue, paused) == 0
else
  idle = redis.call('EXISTS', lock, readers, queue) == 0
end
if idle and not shared then
  return take_exclusive()
end

--@include lib/waiters.lua
--@include lib/wake.lua
--@include lib/lease.lua
--@include lib/holder.lua
--@include lib/grant.lua
--@include lib/runs.lua

local q = {queue = queue, xqueue = xqueue, alive = alive, wake = wake, info = KEYS[12],
           fence = fence, history = history, heartbeat = heartbeat}

-- Shared holds whose lease ran out belong to crashed holders: drop them.
local function purge_expired_readers()
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', readers, '-inf', now_ms)) do
    local info = redis.call('HGET', rinfo, id)
    if info then
      local holder = holder_owner(info)
      if redis.call('HINCRBY', rinfo, 'o:' .. holder, -1) <= 0 then
        redis.call('HDEL', rinfo, 'o:' .. holder)
      end
      redis.call('HDEL', rinfo, id)
    end
    redis.call('ZREM', readers, id)
  end
end

local function forget_waiter()
  if waiter ~= '' and not idle then
    drop_waiter(q, waiter)
  end
end

-- `grant_left`: the lock is an untaken grant that may be ended in that many ms.
local function refuse(grant_left)
  drop_dead_waiters(q, now_ms)
  local window = 0
  if waiter ~= '' then
    local info = table.concat({owner, hold, ARGV[3], ARGV[6], ARGV[7], ARGV[8], ARGV[9]}, '\t')
    local arrival_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
    window = enqueue_waiter(q, waiter, arrival_us, not shared, now_ms, heartbeat, info)
  end
  -- Its grantee may be dead: wait at most until then.
  local left = grant_left or redis.call('PTTL', lock)
  local h = redis.call('HMGET', lock, 'host', 'pid', 'user', 'cmd', 'since', 'fence', 'until')
  local nreaders = redis.call('ZCARD', readers)
  if left < 0 and nreaders > 0 then
    -- Held shared: describe the oldest holder; wait at most until the first lease ends.
    local first = redis.call('ZRANGE', readers, 0, 0, 'WITHSCORES')
    left = tonumber(first[2]) - now_ms
    local f = tab_fields(redis.call('HGET', rinfo, first[1]) or '')
    h = {f[2], f[3], f[4], f[5], f[6], f[7]}
  end
  if left < 0 and nreaders == 0 then
    -- Free, but others are queued first. The head may be dead: wait at most until the first
    -- heartbeat in the queue lapses, when a dead head is dropped.
    local first = redis.call('ZRANGE', alive, 0, 0, 'WITHSCORES')
    if first[2] then
      left = tonumber(first[2]) - now_ms
    end
  end
  local waiters = redis.call('ZCARD', queue)
  local err
  if waiter == '' and ARGV[11] ~= '0' then
    count_skip(KEYS[10], 'skipped_busy')
    err = history_add_present(history, 'event', 'skip', 'mode', shared and 's' or 'x',
                              'host', ARGV[6], 'pid', ARGV[7], 'user', ARGV[8],
                              'command', ARGV[9], 'other_host', h[1], 'other_pid', h[2],
                              'other_user', h[3], 'other_command', h[4],
                              'other_since_ms', h[5], 'other_fence', h[6],
                              'other_count', nreaders > 1 and tostring(nreaders) or '',
                              'held_until_ms', h[7],
                              'waiters', waiters > 0 and tostring(waiters) or '')
  end
  return with_error({0, left, h[1] or '', tonumber(h[2] or 0), h[3] or '', h[4] or '',
                     tonumber(h[5] or 0), tonumber(h[6] or 0), waiters, nreaders,
                     tonumber(h[7] or 0), window}, err)
end

-- The name is paused: refused, out of the queue, whatever the wait.
local function refuse_paused()
  if waiter ~= '' then
    drop_waiter(q, waiter)
  end
  local p = redis.call('HMGET', paused, 'by', 'host', 'reason', 'since', 'until')
  local err, recorded = nil, 0
  if ARGV[11] ~= '0' then
    recorded = 1
    count_skip(KEYS[10], 'skipped_paused')
    local by = (p[2] or '') ~= '' and (p[1] or '') .. '@' .. p[2] or p[1]
    err = history_add_present(history, 'event', 'skip', 'mode', shared and 's' or 'x',
                              'host', ARGV[6], 'pid', ARGV[7], 'user', ARGV[8],
                              'command', ARGV[9], 'reason', 'paused', 'paused_by', by,
                              'until_ms', p[5] ~= '0' and p[5] or '')
  end
  return with_error({-2, tonumber(p[5] or 0), p[1] or '', p[2] or '', p[3] or '',
                     tonumber(p[4] or 0), recorded}, err)
end

local function take_shared(token)
  redis.call('ZADD', readers, now_ms + ttl, hold)
  redis.call('HSET', rinfo, hold,
             holder_info(owner, ARGV[6], ARGV[7], ARGV[8], ARGV[9], now_ms, token))
  local holds = redis.call('HINCRBY', rinfo, 'o:' .. owner, 1)
  extend_expiry({readers, rinfo}, ARGV[3])
  forget_waiter()
  -- Only the owner's first shared hold is an acquisition; later ones are re-entries.
  local err = holds == 1 and record_acquired('s', ms(token)) or nil
  return with_error({1, token, holds, 's'}, err)
end

if idle then
  -- Shared (an idle exclusive request took its path above): nobody to share with or wait for.
  return take_shared(next_fence(fence, t))
end

local current = redis.call('HGET', lock, 'owner')
if current == owner then
  -- Re-entry by the exclusive owner (also when it asks for shared), or a replay of our own
  -- request: one hold per hold id.
  if redis.call('HSETNX', lock, 'h:' .. hold, 1) == 1 then
    redis.call('HINCRBY', lock, 'holds', 1)
  end
  extend_expiry({lock}, ARGV[3])
  forget_waiter()
  local h = redis.call('HMGET', lock, 'fence', 'holds')
  return {1, tonumber(h[1]), tonumber(h[2]), 'x'}
end
-- Paused: nothing new is held. An owner that reads already re-enters (or replays) below.
if paused and redis.call('EXISTS', paused) == 1 and
   redis.call('HEXISTS', rinfo, 'o:' .. owner) == 0 then
  return refuse_paused()
end
if current then
  -- A grant its waiter did not take in time is ended here, and the lock is free.
  local grant_left = q.info and untaken_grant(q, lock, now_ms)
  if grant_left ~= 0 then
    return refuse(grant_left or nil)
  end
end

purge_expired_readers()
local my_reads = tonumber(redis.call('HGET', rinfo, 'o:' .. owner) or 0)
if shared then
  local mine = redis.call('HGET', rinfo, hold)
  if mine then
    -- A replay of a shared acquire that already succeeded.
    forget_waiter()
    return {1, tonumber(string.match(mine, '([^\t]*)$')), my_reads, 's'}
  end
  if my_reads > 0 then
    -- Re-entry: the owner already reads, so it must not queue behind a writer (deadlock).
    return take_shared(next_fence(fence, t))
  end
  -- Readers share, but never overtake a queued writer: admitted only if no exclusive waiter
  -- arrived before us (for a newcomer: none is queued at all).
  drop_dead_waiters(q, now_ms)
  local my_arrival = waiter ~= '' and redis.call('ZSCORE', queue, waiter)
  local writer = my_arrival and redis.call('ZRANGEBYSCORE', xqueue, '-inf', '(' .. my_arrival,
                                           'LIMIT', 0, 1)[1]
                 or (not my_arrival and redis.call('ZRANGE', xqueue, 0, 0)[1])
  if writer then
    return refuse()
  end
  return take_shared(next_fence(fence, t))
end

if my_reads > 0 then
  return {-1}
end
if redis.call('ZCARD', readers) > 0 then
  return refuse()
end

-- Free. First come, first served: only the queue head (or anyone, if nobody queues) may take
-- it. The queue is usually empty, so look before purging.
local head = redis.call('ZRANGE', queue, 0, 0)[1]
if head then
  drop_dead_waiters(q, now_ms)
  head = redis.call('ZRANGE', queue, 0, 0)[1]
end
if head and head ~= waiter then
  -- The head may have missed its wake-up (e.g. it was reconnecting), or be dead: an exclusive
  -- head is handed the lock, for at most a heartbeat unless it takes it; another one is nudged.
  if q.info and redis.call('ZSCORE', xqueue, head) and grant_lock(q, lock, head, t, now_ms) then
    return refuse(tonumber(redis.call('HGET', lock, 'grant_by')) - now_ms)
  end
  wake_up(wake .. head, 2 * heartbeat)
  return refuse()
end

forget_waiter()
return take_exclusive()
