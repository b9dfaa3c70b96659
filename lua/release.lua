-- Drop one hold on a lease. The last exclusive hold deletes the lock, the last shared hold
-- leaves it to writers; then the waiters that can proceed are woken.
--
--   redis-cli --eval build/lua/release.lua dlock:{job}:lock dlock:{job}:queue dlock:{job}:alive \
--     dlock:{job}:wake: dlock:{job}:readers dlock:{job}:rinfo dlock:{job}:xqueue \
--     dlock:{job}:history dlock:{job}:released:HOLD , OWNER HOLD HEARTBEAT_MS MODE EXIT_STATUS \
--     MIN_HOLD_MS
--
-- MODE is 'x' (exclusive, default) or 's' (shared). Idempotent: releasing the same hold id
-- twice changes nothing the second time.
-- Optional: KEYS[8] the history stream, where the last hold's release is recorded with
-- EXIT_STATUS (the command's, "" if unknown) and the duration in server time; MIN_HOLD_MS
-- (--min-hold, exclusive only): if the lease is released sooner than that after its
-- acquisition, the hash stays, owner-less (nobody can renew or re-enter it) and marked with
-- `until`, and expires by itself at acquisition + MIN_HOLD_MS. Waiters are not woken then:
-- their waits are bounded by the key's PTTL.
-- Optional: KEYS[9] the hold's release receipt. The release that drops a hold's last claim
-- leaves it behind for as long as the lease could have lasted, so that a retry whose first try
-- ran but lost its reply answers "released" instead of "not ours": without it, a lease that
-- vanished (a restart without persistence, a failover, `release --force`) and our own earlier
-- release look the same, and the first must be reported as lost.
-- Returns {1, holds the owner has left} if the hold was ours (0 = none left), {0, 0} if it was
-- not (expired, force-released or never taken). When the history could not be written, its
-- error is appended to the reply.

-- Pieces shared with other scripts, inserted here at build time (see README, "Keys"):
--@include lib/lock_wake.lua
--@include lib/history.lua
--@include lib/holder.lua

local lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers, rinfo, xqueue, history, receipt = KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9]
local owner, hold, heartbeat = ARGV[1], ARGV[2], tonumber(ARGV[3])
local exit_status, min_hold = ARGV[5] or '', tonumber(ARGV[6] or 0) or 0
local q = {queue = queue, xqueue = xqueue, alive = alive, wake = wake}

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Records the release of a lease acquired at `since`; it never fails the release
-- (lib/history.lua).
local function record_release(mode, host, pid, user, cmd, since, fence, now, held_until)
  local fields = {'event', 'release', 'mode', mode, 'host', host or '', 'pid', pid or '',
                  'user', user or '', 'command', cmd or '', 'fence', fence or '',
                  'start_ms', since or '', 'end_ms', ms(now),
                  'duration_ms', ms(math.max(0, now - (tonumber(since) or now)))}
  if exit_status ~= '' then
    fields[#fields + 1] = 'exit_status'
    fields[#fields + 1] = exit_status
  end
  if held_until then
    fields[#fields + 1] = 'held_until_ms'
    fields[#fields + 1] = ms(held_until)
  end
  return history_append(history, fields)
end

local function wake_waiters()
  wake_lock_waiters(q, lock, readers, heartbeat)
end

-- The client retries a release for a few seconds even past the lease's end (a reset connection
-- is over at once): the receipt outlives both.
local RECEIPT_MIN_MS = 10000

local function leave_receipt(lease_left_ms)
  if receipt then
    redis.call('SET', receipt, owner, 'PX', math.max(lease_left_ms, RECEIPT_MIN_MS))
  end
end

-- A retry of a release that already ran (its reply was lost).
local function released_before()
  return receipt and redis.call('GET', receipt) == owner
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
  local deadline = tonumber(redis.call('ZSCORE', readers, hold)) or 0
  redis.call('ZREM', readers, hold)
  redis.call('HDEL', rinfo, hold)
  local left = redis.call('HINCRBY', rinfo, 'o:' .. owner, -1)
  local now = now_ms()
  leave_receipt(deadline - now)
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

local h = redis.call('HMGET', lock, 'owner', 'holds', 'h:' .. hold, 'done_by')
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
local now = now_ms()
leave_receipt(redis.call('PTTL', lock))
local m = redis.call('HMGET', lock, 'host', 'pid', 'user', 'cmd', 'since', 'fence')
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
wake_waiters()
return with_error({1, 0}, record_release('x', m[1], m[2], m[3], m[4], m[5], m[6], now))
