-- The schedule slot of a lock held with `dlock run --once-per`: claim it right after the
-- acquisition, mark it done after a successful run.
--
--   redis-cli --eval build/lua/slot.lua dlock:{job}:lock dlock:{job}:slot , \
--     OP OWNER HOLD PERIOD_MS OFFSET_MS TOLERANCE_MS SLOT HOST PID USER FENCE
--
-- KEYS: the exclusive holder hash, the slot hash (slot: the last slot done; host, pid, user,
--       at: server ms when it was marked; fence: the token of the run that did it; period and
--       offset: the rule its index is of; by: "strict" when marked by a claim, "done" after a
--       successful run).
-- ARGV: OP "claim" (the slot the server's clock is in now: done already?), "strict" (claim,
--       and mark it done at once when it is open), "done" (mark slot SLOT done) or "peek"
--       (whether the slot of now is done, for a run refused by a lock kept by --min-hold: it
--       needs no lease and writes nothing); the owner
--       token and hold id of the caller's lease, the period, offset and tolerance in ms, the
--       slot (for "done"; ignored otherwise), the caller's host, pid, user and fencing token.
-- Only the holder of the lock may claim or mark: the slot is decided under the lock, so
-- whatever took the lock (an acquire, or a hand-off to a waiter in lib/grant.lua) claims
-- before its command runs, and two runs never decide on the same slot at once.
-- A mark made under another period or offset (kept in the hash) does not count, and the reply
-- then names it: {1, slot, acquisition ms, its period, its offset, its host}.
-- Returns {-2, type} when the slot key is not a hash (not dlock's), {-1} when the caller does not
-- hold the lock (lost), {1, slot, acquisition ms} when the
-- slot is open (claimed; with "strict" and "done", marked now; a claim also when the slot was
-- marked with the caller's own fencing token; then also the mark's period, offset and host when
-- it was made under another schedule, and its slot text too when it was unreadable or more than
-- a slot ahead: either was ignored), or {0, slot, done slot, host,
-- pid, user, at ms, fence} when it (or a later one) was done already: nothing changed.

local lock, slot_key = KEYS[1], KEYS[2]
local op, owner, hold = ARGV[1], ARGV[2], ARGV[3]
local period, offset, tolerance = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

local held = redis.call('HMGET', lock, 'owner', 'since', 'holds')
if op ~= 'peek' and (held[1] ~= owner or redis.call('HEXISTS', lock, 'h:' .. hold) == 0) then
  return {-1}
end
local kind = redis.call('TYPE', slot_key).ok
if kind ~= 'hash' and kind ~= 'none' then
  return {-2, kind}
end

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
-- The slot of the server's clock when the lock was taken (`since`, set by the acquire or the
-- hand-off; for a nested run, the outermost acquisition's): a boundary passing between the
-- acquisition and this script does not move the run. A run up to `tolerance` before a boundary
-- belongs to the slot that starts there: its host's cron fired early by a clock that runs ahead.
-- A re-entered hold (a nested run inside `dlock acquire` or another run) may have been taken
-- long ago: its slot is the one of now.
local basis = tonumber(held[2]) or now_ms
if op == 'peek' or (tonumber(held[3]) or 1) > 1 then
  basis = now_ms
end
local slot = math.floor((basis - offset + tolerance) / period)
if op == 'done' then
  slot = tonumber(ARGV[7])
end

local d = redis.call('HMGET', slot_key, 'slot', 'host', 'pid', 'user', 'at', 'fence', 'period',
                     'offset', 'by')
-- Only dlock's own digits count as a mark (Lua's tonumber also reads 'inf', '1e300', hex).
local raw = d[1]
local done = raw and #raw <= 15 and string.match(raw, '^%-?%d+$') and tonumber(raw) or nil
-- A mark made under another period or offset numbers its slots differently: it says nothing
-- about ours (the schedule was changed, or the hosts disagree), and is replaced by our mark.
local foreign = done and (d[7] ~= ARGV[4] or d[8] ~= ARGV[5])
-- A mark dlock cannot read, or more than a slot ahead of the server's clock (a clock that jumped
-- back, a hand-written key), would skip every run until the key expires: it does not count.
local now_slot = math.floor((now_ms - offset + tolerance) / period)
local bogus = raw and not foreign and (not done or done > now_slot + 1)
if foreign or bogus then
  done = nil
end
if done and done == slot and d[6] == ARGV[11] and d[9] == 'strict' and op ~= 'done' then
  -- Marked when this very acquisition (its token) claimed it strictly: the claim sent again
  -- after a lost reply, or a nested run inside the run that claimed it. Still ours to run. (A
  -- slot a run finished, even under this same hold, is done: nested runs inside one long
  -- `dlock acquire` run once per slot.)
  return {1, done, basis}
end
if done and done >= slot then
  -- Never mark an older slot over a newer one.
  return {0, slot, done, d[2] or '', d[3] or '', d[4] or '', tonumber(d[5]) or 0, d[6] or ''}
end

if op == 'strict' or op == 'done' then
  redis.call('HSET', slot_key, 'slot', string.format('%d', slot), 'host', ARGV[8], 'pid', ARGV[9],
             'user', ARGV[10], 'at', string.format('%d', now_ms), 'fence', ARGV[11], 'period',
             ARGV[4], 'offset', ARGV[5], 'by', op)
  -- Kept past the slot's end (boundary + tolerance), so that every run of the slot, however
  -- late its host's clock, finds it done; and past now for a run that outlasted its slot. By a
  -- period, but at most a day: after its slot a mark decides nothing (every claim is for a later
  -- slot), so a yearly rule's mark need not outlive its year by another one.
  local slot_end = (slot + 1) * period + offset - tolerance
  local keep = math.max(slot_end + tolerance, now_ms) + math.min(period, 86400000)
  redis.call('PEXPIREAT', slot_key, string.format('%d', keep))
end
if bogus then
  return {1, slot, basis, d[7] or '', d[8] or '', d[2] or '', raw}
end
if foreign then
  return {1, slot, basis, d[7] or '', d[8] or '', d[2] or ''}
end
return {1, slot, basis}
