-- Read a semaphore permit by permit (changes nothing; expired permits and lapsed waiters are
-- not counted): what `dlock sem status` shows.
--
--   redis-cli --eval build/lua/sem_status.lua dlock:{pool}:sem dlock:{pool}:permits \
--     dlock:{pool}:salive
--
-- KEYS: semaphore hash, permits (zset permit -> lease deadline ms), waiter heartbeats (zset).
-- Returns {now ms, limit (0: none in force), live waiters, then 8 fields per live permit, in
--          the order their leases end: permit id, deadline ms, host, pid, user, cmd, since ms,
--          fencing token}.
-- Holder info strings are "owner\thost\tpid\tuser\tcmd\tsince_ms\tfence".

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/holder.lua

local sem, permits, alive = KEYS[1], KEYS[2], KEYS[3]

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local live = redis.call('ZRANGEBYSCORE', permits, '(' .. now_ms, '+inf', 'WITHSCORES')
local reply = {now_ms, tonumber(redis.call('HGET', sem, 'limit')) or 0,
               redis.call('ZCOUNT', alive, '(' .. now_ms, '+inf')}
for i = 1, #live, 2 do
  local f = holder_fields(redis.call('HGET', sem, 'p:' .. live[i]) or '')
  for _, v in ipairs({live[i], tonumber(live[i + 1]), f[2], f[3], f[4], f[5], f[6], f[7]}) do
    reply[#reply + 1] = v
  end
end
return reply
