-- Break semaphore permits whatever their owner (`dlock release --force --permit ID NAME`, or
-- `--all-permits`): the permit PERMIT, or every live permit when PERMIT is "", goes; exactly
-- the waiters this makes able to take a permit are woken (as sem_release.lua does); the forcer
-- is recorded in the history. The holders notice at their next renewal (sem_renew.lua finds
-- the permit gone: "not ours") and stop their commands.
--
--   redis-cli --eval lua/sem_force_release.lua dlock:{pool}:sem dlock:{pool}:permits \
--     dlock:{pool}:squeue dlock:{pool}:salive dlock:{pool}:swake: dlock:{pool}:history , \
--     PERMIT HEARTBEAT_MS HOST PID USER CMD
--
-- KEYS: as sem_release.lua, plus the history stream (optional).
-- ARGV: permit id ("" = every permit), waiter heartbeat ms (wake lists live twice that), the
--       forcer's host, pid, user, cmd.
-- Returns {waiters woken, history error or "", permits still held, then one entry per permit
--          broken: {permit id, host, pid, user, cmd, since ms, fencing token}}. Only three
--          elements: nothing was broken (no such live permit, or none held) and nothing recorded.
local sem, permits, queue, alive, wake, history = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local permit, heartbeat = ARGV[1], tonumber(ARGV[2])

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(redis.call('HGET', sem, 'limit')) or 0
local waiting = redis.call('EXISTS', queue) == 1

-- The fields of a holder info string "owner\thost\tpid\tuser\tcmd\tsince_ms\tfence". The
-- command may contain tabs itself, so the fields around it are taken from both ends.
local function holder_fields(info)
  local owner, host, pid, user, rest =
    string.match(info, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$')
  local cmd, since, fence = string.match(rest or '', '^(.*)\t([^\t]*)\t([^\t]*)$')
  return {owner or info, host or '', tonumber(pid) or 0, user or '', cmd or '',
          tonumber(since) or 0, tonumber(fence) or 0}
end

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

-- Permits of crashed holders come back once their lease has run out: nothing to break there.
for _, id in ipairs(redis.call('ZRANGEBYSCORE', permits, '-inf', now_ms)) do
  redis.call('HDEL', sem, 'p:' .. id)
  redis.call('ZREM', permits, id)
end

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

if waiting then
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', alive, '-inf', now_ms)) do
    redis.call('ZREM', queue, id)
    redis.call('ZREM', alive, id)
    redis.call('DEL', wake .. id)
  end
end

local held = redis.call('ZCARD', permits)
local woken = 0
for _, id in ipairs(entitled(held)) do
  if not before[id] then
    redis.call('LPUSH', wake .. id, 1)
    redis.call('LTRIM', wake .. id, 0, 0)
    redis.call('PEXPIRE', wake .. id, 2 * heartbeat)
    woken = woken + 1
  end
end
if held == 0 and redis.call('EXISTS', queue) == 0 then
  -- Nobody holds or waits: the limit is no longer in force.
  redis.call('DEL', sem)
end
if #broken == 0 then
  return {woken, '', held}
end

local err = ''
if history then
  local first = broken[1]
  local added = redis.pcall('XADD', history, 'MAXLEN', '~', 1000, '*', 'event', 'force',
                            'mode', 'permit', 'host', ARGV[3], 'pid', ARGV[4], 'user', ARGV[5],
                            'command', ARGV[6], 'permit', first[1], 'other_host', first[2],
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

local reply = {woken, err, held}
for _, b in ipairs(broken) do
  reply[#reply + 1] = b
end
return reply
