-- Drop one hold on a lease. The last exclusive hold deletes the lock, the last shared hold
-- leaves it to writers; then the waiters that can proceed are woken.
--
--   redis-cli --eval build/lua/release.lua dlock:{job}:lock dlock:{job}:queue dlock:{job}:alive \
--     dlock:{job}:wake: dlock:{job}:readers dlock:{job}:rinfo dlock:{job}:xqueue \
--     dlock:{job}:history dlock:{job}:winfo dlock:{job}:fence dlock:{job}:runs , OWNER HOLD \
--     HEARTBEAT_MS MODE EXIT_STATUS MIN_HOLD_MS FENCE OUTCOME
--
-- MODE is 'x' (exclusive, default) or 's' (shared). Idempotent: releasing the same hold id
-- twice changes nothing the second time.
-- Optional: KEYS[8] the history stream, where the last hold's release is recorded with
-- EXIT_STATUS (the command's, "" if unknown) and the duration in server time; MIN_HOLD_MS
-- (--min-hold, exclusive only): if the lease is released sooner than that after its
-- acquisition, the hash stays, owner-less (nobody can renew or re-enter it) and marked with
-- `until`, and expires by itself at acquisition + MIN_HOLD_MS. Waiters are not woken then:
-- their waits are bounded by the key's PTTL.
-- Optional: KEYS[9] the waiters' details and KEYS[10] the fencing counter: given, a free lock is
-- granted to an exclusive head of the queue instead of waking it (lib/grant.lua).
-- Optional: KEYS[11] the run counters (lib/runs.lua), where the last hold's release counts
-- OUTCOME (ok, failed, timed_out or lost: how the command ended; "" counts nothing).
-- Optional: FENCE, the lease's fencing token. A hold not found is looked up in the recent
-- history: a release of that token recorded there means this is a retry of a release that ran
-- but lost its reply, answered "released"; otherwise the lease vanished (a restart without
-- persistence, a failover, `release --force`), which the client must report as lost.
-- Returns {1, holds the owner has left} if the hold was ours (0 = none left), {0, 0} if it was
-- not (expired, force-released or never taken). When the history could not be written, its
-- error is appended to the reply.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys").
-- The uncontended release needs only the history; the other pieces are included after it, so
-- that it returns before Redis creates their functions (as it does on every call).
--@include lib/history.lua
--@include lib/runs.lua

local lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers, rinfo, xqueue, history = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local owner, hold, heartbeat = ARGV[1], ARGV[2], tonumber(ARGV[3])
local exit_status, min_hold = ARGV[5] or '', tonumber(ARGV[6] or 0) or 0
local fence = ARGV[7] or ''
local runs, outcome = KEYS[11], ARGV[8] or ''

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Records the release of a lease acquired at `since`, and counts its run; it never fails the
-- release (lib/history.lua).
local function record_release(mode, host, pid, user, cmd, since, fence, now, held_until)
  local end_ms, duration_ms = ms(now), ms(math.max(0, now - (tonumber(since) or now)))
  count_run(runs, outcome, host or '', exit_status, end_ms, duration_ms)
  local extra = exit_status ~= '' and {'exit_status', exit_status} or {}
  if held_until then
    extra[#extra + 1] = 'held_until_ms'
    extra[#extra + 1] = ms(held_until)
  end
  return history_add(history, 'event', 'release', 'mode', mode, 'host', host or '',
                     'pid', pid or '', 'user', user or '', 'command', cmd or '',
                     'fence', fence or '', 'start_ms', since or '', 'end_ms', end_ms,
                     'duration_ms', duration_ms, unpack(extra))
end

-- The uncontended release: the last hold of our exclusive lease, no --min-hold keeping it, and
-- nobody queued to wake (one look at the queue). Anything else goes on below, with `h` and
-- `now` as read here.
local h, now
if ARGV[4] ~= 's' then
  -- One read for the ownership check and, for the last hold, what its release records.
  h = redis.call('HMGET', lock, 'owner', 'holds', 'h:' .. hold, 'done_by', 'host', 'pid',
                 'user', 'cmd', 'since', 'fence')
  if h[1] == owner and h[3] and tonumber(h[2]) == 1 then
    now = now_ms()
    local kept = min_hold > 0 and now < (tonumber(h[9]) or now) + min_hold
    if not kept and redis.call('EXISTS', queue) == 0 then
      redis.call('DEL', lock)
      return with_error({1, 0}, record_release('x', h[5], h[6], h[7], h[8], h[9], h[10], now))
    end
  end
end

--@include lib/lock_wake.lua
--@include lib/holder.lua

local q = {queue = queue, xqueue = xqueue, alive = alive, wake = wake, info = KEYS[9],
           fence = KEYS[10], history = history, heartbeat = heartbeat}

local function wake_waiters()
  wake_lock_waiters(q, lock, readers, heartbeat)
end

-- How far back a retried release looks for its first try: a retry follows within seconds.
local RECENT_EVENTS = 200

-- A retry of a release that already ran (its reply was lost): the history has its release.
local function released_before()
  if not history or fence == '' then
    return false
  end
  for _, entry in ipairs(redis.call('XREVRANGE', history, '+', '-', 'COUNT', RECENT_EVENTS)) do
    local f, event, token = entry[2], nil, nil
    for i = 1, #f - 1, 2 do
      if f[i] == 'event' then
        event = f[i + 1]
      elseif f[i] == 'fence' then
        token = f[i + 1]
      end
    end
    if event == 'release' and token == fence then
      return true
    end
  end
  return false
end

if ARGV[4] == 's' then
  local info = redis.call('HGET', rinfo, hold)
  if not info or holder_owner(info) ~= owner then
    wake_waiters()
    if released_before() then
      return {1, tonumber(redis.call('HGET', rinfo, 'o:' .. owner)) or 0}
    end
    return {0, 0}
  end
  redis.call('ZREM', readers, hold)
  redis.call('HDEL', rinfo, hold)
  local left = redis.call('HINCRBY', rinfo, 'o:' .. owner, -1)
  local now = now_ms()
  local err
  if left <= 0 then
    redis.call('HDEL', rinfo, 'o:' .. owner)
    left = 0
    local f = tab_fields(info) -- owner, host, pid, user, cmd, since, fence
    err = record_release('s', f[2], f[3], f[4], f[5], f[6], f[7], now)
  end
  wake_waiters()
  return with_error({1, left}, err)
end

if h[1] ~= owner then
  if h[1] == '' and h[4] == owner then
    -- A replay of our final release, kept by --min-hold.
    return {1, 0}
  end
  if not h[1] then
    wake_waiters()
  end
  if released_before() then
    return {1, 0}
  end
  return {0, 0}
end
local holds = tonumber(h[2])
if not h[3] then
  -- This hold was already released (a retried request): nothing changes.
  return {1, holds}
end
if holds > 1 then
  redis.call('HDEL', lock, 'h:' .. hold)
  return {1, redis.call('HINCRBY', lock, 'holds', -1)}
end
now = now or now_ms()
local m = {unpack(h, 5, 10)} -- host, pid, user, cmd, since, fence
local held_until = (tonumber(m[5]) or now) + min_hold
if min_hold > 0 and now < held_until then
  -- --min-hold: keep the lease (owner-less, so nobody renews or re-enters it) until
  -- acquisition + MIN_HOLD; Redis expires it then. `done_by` recognises a replay.
  redis.call('HDEL', lock, 'h:' .. hold)
  redis.call('HSET', lock, 'owner', '', 'holds', 0, 'done_by', owner, 'until', ms(held_until))
  redis.call('PEXPIRE', lock, held_until - now)
  return with_error({1, 0}, record_release('x', m[1], m[2], m[3], m[4], m[5], m[6], now,
                                           held_until))
end
redis.call('DEL', lock)
-- Recorded first: the next holder's acquisition (a grant) follows it in the history.
local err = record_release('x', m[1], m[2], m[3], m[4], m[5], m[6], now)
wake_waiters()
return with_error({1, 0}, err)
