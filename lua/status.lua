-- Everything about one name, read in one round trip (changes nothing): its lock (exclusive
-- holder or shared holders), its semaphore and its latch, with the live waiters of each.
--
--   redis-cli --eval build/lua/status.lua dlock:{job}:lock dlock:{job}:readers dlock:{job}:rinfo \
--     dlock:{job}:alive dlock:{job}:latch dlock:{job}:latch-waiters dlock:{job}:sem \
--     dlock:{job}:permits dlock:{job}:squeue dlock:{job}:runs dlock:{job}:fence \
--     dlock:{job}:history dlock:{job}:paused , ok failed ...
--
-- KEYS: lock hash, shared holds (zset hold id -> deadline ms), shared hold info (hash), lock
--       waiter heartbeats (zset id -> deadline ms), latch hash, latch waiters (zset id ->
--       deadline ms), semaphore hash (limit; p:<permit id> -> holder), permits (zset permit id
--       -> deadline ms), semaphore waiters (zset), run counters (hash, lib/runs.lua); optional:
--       the fencing counter and the history stream; then the pause (hash, lua/pause.lua).
-- ARGV: the fields of the run counters to read (redis/stores/runs_reader.hpp).
-- Returns {server now ms, lock, shared holders, lock waiters, latch, semaphore, runs, traces,
--          pause}:
--   lock:      {} when absent, else {state ("x", or "done" for a finished holder kept by
--              --min-hold), PTTL ms, host, pid, user, cmd, since ms, fencing token, holds,
--              held until ms (0 unless "done")};
--   shared holders, and a semaphore's holders: 8 fields per owner: {deadline ms, host, pid,
--              user, cmd, since ms, fencing token, holds}, the owner's oldest hold first
--              (deadline: its latest);
--   latch:     {} when absent, else {count, initial, PTTL ms, live waiters};
--   semaphore: {} when absent, else {limit, waiters, holder fields...};
--   runs:      the values of the ARGV fields (nil when absent; all nil when the key is not a
--              hash: counting never breaks, nor does reading);
--   traces:    1 when the fencing counter exists but the history does not (given both keys):
--              the tokens went to semaphore permits, which keep no history, and not to a lock,
--              whose every acquisition writes the history (kept 30 days, as the counter); else 0;
--   pause:     {} when not paused, else {by, host, reason, since ms, until ms (0: no end)}.
-- Holder info strings are "owner\thost\tpid\tuser\tcmd\tsince_ms\tfence".

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/holder.lua

local lock, readers, rinfo, alive = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local latch, latch_waiters, sem, permits, squeue = KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9]
local runs, fence, history, paused = KEYS[10], KEYS[11], KEYS[12], KEYS[13]

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

-- The live members of `zset` (deadline > now), grouped by owner, appended to `out`.
local function holders(zset, info_hash, field_prefix, out)
  local by_owner, order = {}, {}
  local live = redis.call('ZRANGEBYSCORE', zset, '(' .. now_ms, '+inf', 'WITHSCORES')
  for i = 1, #live, 2 do
    local info = redis.call('HGET', info_hash, field_prefix .. live[i])
    if info then
      local f = holder_fields(info)
      local deadline, since = tonumber(live[i + 1]), f[6]
      local o = by_owner[f[1]]
      if not o then
        o = {deadline, f[2], f[3], f[4], f[5], since, f[7], 0}
        by_owner[f[1]] = o
        order[#order + 1] = o
      end
      o[1] = math.max(o[1], deadline)
      if since < o[6] then
        o[2], o[3], o[4], o[5], o[6], o[7] = f[2], f[3], f[4], f[5], since, f[7]
      end
      o[8] = o[8] + 1
    end
  end
  table.sort(order, function(a, b) return a[6] < b[6] end)
  for _, o in ipairs(order) do
    for _, v in ipairs(o) do
      out[#out + 1] = v
    end
  end
  return out
end

local lock_info = {}
local h = redis.call('HMGET', lock, 'owner', 'host', 'pid', 'user', 'cmd', 'since', 'fence',
                     'holds', 'until')
if h[1] then
  lock_info = {h[1] == '' and 'done' or 'x', redis.call('PTTL', lock), h[2] or '',
               tonumber(h[3] or 0), h[4] or '', h[5] or '', tonumber(h[6] or 0),
               tonumber(h[7] or 0), tonumber(h[8] or 0), tonumber(h[9] or 0)}
end

local latch_info = {}
local l = redis.call('HMGET', latch, 'count', 'initial')
if l[2] then
  latch_info = {tonumber(l[1]), tonumber(l[2]), redis.call('PTTL', latch),
                redis.call('ZCOUNT', latch_waiters, '(' .. now_ms, '+inf')}
end

local sem_info = {}
local limit = redis.call('HGET', sem, 'limit')
if limit then
  sem_info = holders(permits, sem, 'p:', {tonumber(limit), redis.call('ZCARD', squeue)})
end

local run_info = {}
if runs and #ARGV > 0 then
  run_info = redis.pcall('HMGET', runs, unpack(ARGV))
  if run_info.err then
    run_info = {}
  end
end

-- A free semaphore leaves no hash behind: only its fencing counter says it was used.
local traces = 0
if history and redis.call('EXISTS', fence) == 1 and redis.call('EXISTS', history) == 0 then
  traces = 1
end

local pause_info = {}
if paused then
  local p = redis.pcall('HMGET', paused, 'by', 'host', 'reason', 'since', 'until')
  if not p.err and p[4] then
    pause_info = {p[1] or '', p[2] or '', p[3] or '', tonumber(p[4]) or 0, tonumber(p[5]) or 0}
  end
end

return {now_ms, lock_info, holders(readers, rinfo, '', {}),
        redis.call('ZCOUNT', alive, '(' .. now_ms, '+inf'), latch_info, sem_info, run_info,
        traces, pause_info}
