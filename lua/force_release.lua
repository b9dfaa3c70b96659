-- Break a lock whatever its owner (`dlock release --force`): the exclusive lease (also one
-- kept by --min-hold) and every shared hold go, every live waiter is woken (they retry in
-- queue order), and the forcer is recorded in the history. The holders notice at their next
-- renewal ("not ours") and stop their commands.
--
--   redis-cli --eval lua/force_release.lua dlock:{job}:lock dlock:{job}:queue \
--     dlock:{job}:alive dlock:{job}:wake: dlock:{job}:readers dlock:{job}:rinfo \
--     dlock:{job}:history , HEARTBEAT_MS HOST PID USER CMD
--
-- KEYS: as release.lua (without xqueue), plus the history stream (optional).
-- ARGV: waiter heartbeat ms (wake lists live twice that), the forcer's host, pid, user, cmd.
-- Returns {waiters woken, history error or "", holder...}, one holder per owner broken:
--   {mode ("x", "s", or "done" for a finished holder kept by --min-hold), host, pid, user,
--    cmd, since ms, fencing token}. Only two elements: nothing was held.
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
-- The fields of a holder info string "owner\thost\tpid\tuser\tcmd\tsince_ms\tfence". The
-- command may contain tabs itself, so the fields around it are taken from both ends.
local function holder_fields(info)
  local owner, host, pid, user, rest =
    string.match(info, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$')
  local cmd, since, fence = string.match(rest or '', '^(.*)\t([^\t]*)\t([^\t]*)$')
  return {owner or info, host or '', tonumber(pid) or 0, user or '', cmd or '',
          tonumber(since) or 0, tonumber(fence) or 0}
end

local seen = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', readers, '(' .. now_ms, '+inf')) do
  local f = holder_fields(redis.call('HGET', rinfo, id) or '')
  if f[1] ~= '' and not seen[f[1]] then
    seen[f[1]] = true
    broken[#broken + 1] = {'s', f[2], f[3], f[4], f[5], f[6], f[7]}
  end
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
    redis.call('LPUSH', wake .. id, 1)
    redis.call('LTRIM', wake .. id, 0, 0)
    redis.call('PEXPIRE', wake .. id, 2 * heartbeat)
    woken = woken + 1
  end
end

local err = ''
if history then
  local first = broken[1]
  local added = redis.pcall('XADD', history, 'MAXLEN', '~', 1000, '*', 'event', 'force',
                            'mode', first[1], 'host', ARGV[2], 'pid', ARGV[3], 'user', ARGV[4],
                            'command', ARGV[5], 'other_host', first[2],
                            'other_pid', tostring(first[3]), 'other_user', first[4],
                            'other_command', first[5],
                            'other_since_ms', string.format('%.0f', first[6]),
                            'other_fence', string.format('%.0f', first[7]),
                            'other_count', tostring(#broken), 'woken', tostring(woken))
  if type(added) == 'table' and added.err then
    err = added.err
  else
    redis.pcall('PEXPIRE', history, 30 * 86400 * 1000)
  end
end

local reply = {woken, err}
for _, b in ipairs(broken) do
  reply[#reply + 1] = b
end
return reply
