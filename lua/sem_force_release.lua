-- Break semaphore permits whatever their owner (`dlock release --force --permit ID NAME`, or
-- `--all-permits`): the permit PERMIT, or every live permit when PERMIT is "", goes; exactly
-- the waiters this makes able to take a permit are woken (as sem_release.lua does); the forcer
-- is recorded in the history. The holders notice at their next renewal (sem_renew.lua finds
-- the permit gone: "not ours") and stop their commands.
--
--   redis-cli --eval build/lua/sem_force_release.lua dlock:{pool}:sem dlock:{pool}:permits \
--     dlock:{pool}:squeue dlock:{pool}:salive dlock:{pool}:swake: dlock:{pool}:history , \
--     PERMIT HEARTBEAT_MS HOST PID USER CMD
--
-- KEYS: as sem_release.lua, plus the history stream (optional).
-- ARGV: permit id ("" = every permit), waiter heartbeat ms (wake lists live twice that), the
--       forcer's host, pid, user, cmd.
-- Returns {waiters woken, history error or "", permits still held, then one entry per permit
--          broken: {permit id, host, pid, user, cmd, since ms, fencing token}}. Only three
--          elements: nothing was broken (no such live permit, or none held) and nothing recorded.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/permits.lua
--@include lib/holder.lua
--@include lib/force_history.lua

local sem, permits, queue, alive, wake, history = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local permit, heartbeat = ARGV[1], tonumber(ARGV[2])
local s = {sem = sem, permits = permits, queue = queue, alive = alive, wake = wake}

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local before = entitled_before(s)
-- Permits of crashed holders come back once their lease has run out: nothing to break there.
drop_expired_permits(s, now_ms)

local targets = {}
if permit == '' then
  targets = redis.call('ZRANGE', permits, 0, -1)
elseif redis.call('ZSCORE', permits, permit) then
  targets = {permit}
end
local broken = {}
for _, id in ipairs(targets) do
  local f = holder_fields(redis.call('HGET', sem, 'p:' .. id) or '')
  broken[#broken + 1] = {id, f[2], f[3], f[4], f[5], f[6], f[7]}
  redis.call('HDEL', sem, 'p:' .. id)
  redis.call('ZREM', permits, id)
end

local held, woken = wake_newly_entitled(s, before, now_ms, heartbeat)
if #broken == 0 then
  return {woken, '', held}
end

local err = record_force(history, 'permit', broken[1][1], {ARGV[3], ARGV[4], ARGV[5], ARGV[6]},
                         broken, woken)

local reply = {woken, err, held}
for _, b in ipairs(broken) do
  reply[#reply + 1] = b
end
return reply
