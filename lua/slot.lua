-- The schedule slot of a lock held with `dlock run --once-per`: claim it right after the
-- acquisition, mark it done after a successful run.
--
--   redis-cli --eval build/lua/slot.lua dlock:{job}:lock dlock:{job}:slot , \
--     OP OWNER HOLD PERIOD_MS OFFSET_MS TOLERANCE_MS SLOT HOST PID USER FENCE
--
-- KEYS: the exclusive holder hash, the slot hash (slot: the last slot done; host, pid, user,
--       at: server ms when it was marked; fence: the token of the run that did it; period and
--       offset: the rule its index is of).
-- ARGV: OP "claim" (the slot the server's clock is in now: done already?), "strict" (claim,
--       and mark it done at once when it is open) or "done" (mark slot SLOT done); the owner
--       token and hold id of the caller's lease, the period, offset and tolerance in ms, the
--       slot (for "done"; ignored otherwise), the caller's host, pid, user and fencing token.
-- Only the holder of the lock may claim or mark: the slot is decided under the lock, so
-- whatever took the lock (an acquire, or a hand-off to a waiter in lib/grant.lua) claims
-- before its command runs, and two runs never decide on the same slot at once.
-- A mark made under another period or offset (kept in the hash) does not count, and the reply
-- then names it: {1, slot, acquisition ms, its period, its offset, its host}.
-- Returns {-1} when the caller does not hold the lock (lost), {1, slot, acquisition ms} when the
-- slot is open (claimed; with "strict" and "done", marked now; a claim also when the slot was
-- marked with the caller's own fencing token), or {0, slot, done slot, host,
-- pid, user, at ms, fence} when it (or a later one) was done already: nothing changed.

local lock, slot_key = KEYS[1], KEYS[2]
local op, owner, hold = ARGV[1], ARGV[2], ARGV[3]
local period, offset, tolerance = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

local held = redis.call('HMGET', lock, 'owner', 'since')
if held[1] ~= owner or redis.call('HEXISTS', lock, 'h:' .. hold) == 0 then
  return {-1}
end

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- The slot of the server's clock when the lock was taken (`since`, set by the acquire or the
-- hand-off; for a nested run, the outermost acquisition's): a boundary passing between the
-- acquisition and this script does not move the run. A run up to `tolerance` before a boundary
-- belongs to the slot that starts there: its host's cron fired early by a clock that runs ahead.
local basis = tonumber(held[2]) or now_ms
local slot = math.floor((basis - offset + tolerance) / period)
if op == 'done' then
  slot = tonumber(ARGV[7])
end

local d = redis.call('HMGET', slot_key, 'slot', 'host', 'pid', 'user', 'at', 'fence', 'period',
                     'offset')
local done = tonumber(d[1])
-- A mark made under another period or offset numbers its slots differently: it says nothing
-- about ours (the schedule was changed, or the hosts disagree), and is replaced by our mark.
local foreign = done and (d[7] ~= ARGV[4] or d[8] ~= ARGV[5])
if foreign then
  done = nil
end
if done and d[6] == ARGV[11] and op ~= 'done' then
  -- Marked by this very acquisition (its token): a strict claim sent again after a lost reply,
  -- or a nested run inside the run that claimed it. Still ours to run.
  return {1, done, basis}
end
if done and done >= slot then
  -- Never mark an older slot over a newer one.
  return {0, slot, done, d[2] or '', d[3] or '', d[4] or '', tonumber(d[5] or 0), d[6] or ''}
end

if op == 'strict' or op == 'done' then
  redis.call('HSET', slot_key, 'slot', string.format('%d', slot), 'host', ARGV[8], 'pid', ARGV[9],
             'user', ARGV[10], 'at', string.format('%d', now_ms), 'fence', ARGV[11], 'period',
             ARGV[4], 'offset', ARGV[5])
  -- Kept a period past the slot's end (boundary + tolerance), so that every run of the slot,
  -- however late its host's clock, finds it done; and a period past now for a run that outlasted
  -- its slot.
  local slot_end = (slot + 1) * period + offset - tolerance
  local keep = math.max(slot_end + tolerance, now_ms) + period
  redis.call('PEXPIREAT', slot_key, string.format('%d', keep))
end
if foreign then
  return {1, slot, basis, d[7] or '', d[8] or '', d[2] or ''}
end
return {1, slot, basis}
