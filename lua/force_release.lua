-- Break a lock whatever its owner (`dlock release --force`): the exclusive lease (also one
-- kept by --min-hold) and every shared hold go, every live waiter is woken (they retry in
-- queue order), and the forcer is recorded in the history. The holders notice at their next
-- renewal ("not ours") and stop their commands.
--
--   redis-cli --eval build/lua/force_release.lua dlock:{job}:lock dlock:{job}:queue \
--     dlock:{job}:alive dlock:{job}:wake: dlock:{job}:readers dlock:{job}:rinfo \
--     dlock:{job}:history , HEARTBEAT_MS HOST PID USER CMD
--
-- KEYS: as release.lua (without xqueue), plus the history stream (optional).
-- ARGV: waiter heartbeat ms (wake lists live twice that), the forcer's host, pid, user, cmd.
-- Returns {waiters woken, history error or "", holder...}, one holder per owner broken:
--   {mode ("x", "s", or "done" for a finished holder kept by --min-hold), host, pid, user,
--    cmd, since ms, fencing token}. Only two elements: nothing was held.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/holder.lua
--@include lib/wake.lua
--@include lib/force_history.lua

local lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers, rinfo, history = KEYS[5], KEYS[6], KEYS[7]
local heartbeat = tonumber(ARGV[1])

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local broken = {}

local h = redis.call('HMGET', lock, 'owner', 'host', 'pid', 'user', 'cmd', 'since', 'fence')
if h[1] then
  broken[1] = {h[1] == '' and 'done' or 'x', h[2] or '', tonumber(h[3] or 0), h[4] or '',
               h[5] or '', tonumber(h[6] or 0), tonumber(h[7] or 0)}
end
local seen = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', readers, '(' .. now_ms, '+inf')) do
  local f = holder_fields(redis.call('HGET', rinfo, id) or '')
  if f[1] ~= '' and not seen[f[1]] then
    seen[f[1]] = true
    broken[#broken + 1] = {'s', f[2], f[3], f[4], f[5], f[6], f[7]}
  end
end
-- A grant not taken yet goes with its token (lib/grant.lua), so its waiter never starts on it.
local grantee = redis.call('HGET', lock, 'grant')
if grantee then
  redis.call('DEL', wake .. grantee)
end
redis.call('DEL', lock, readers, rinfo)
if #broken == 0 then
  return {0, ''}
end

-- Nothing is held now: wake every live waiter. They retry in their queue order (acquire.lua
-- lets only the head in), so waking more than the head only costs a retry each.
local woken = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', alive, '(' .. now_ms, '+inf')) do
  if redis.call('ZSCORE', queue, id) then
    wake_up(wake .. id, 2 * heartbeat)
    woken = woken + 1
  end
end

local err = record_force(history, broken[1][1], nil, {ARGV[2], ARGV[3], ARGV[4], ARGV[5]},
                         broken, woken)

local reply = {woken, err}
for _, b in ipairs(broken) do
  reply[#reply + 1] = b
end
return reply
