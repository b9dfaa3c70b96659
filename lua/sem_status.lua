-- Read a semaphore (changes nothing; expired permits and lapsed waiters are not counted).
--
--   redis-cli --eval lua/sem_status.lua dlock:{pool}:sem dlock:{pool}:permits \
--     dlock:{pool}:salive
--
-- KEYS: semaphore hash, permits (zset permit -> lease deadline ms), waiter heartbeats (zset).
-- Returns {limit (0: unknown), waiters, now ms, then for each live permit, in the order
--          their leases end: permit id, host, pid, user, cmd, since ms, fence, deadline ms}.
local sem, permits, alive = KEYS[1], KEYS[2], KEYS[3]

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local live = redis.call('ZRANGEBYSCORE', permits, '(' .. now_ms, '+inf', 'WITHSCORES')
local reply = {tonumber(redis.call('HGET', sem, 'limit')) or 0,
               redis.call('ZCOUNT', alive, '(' .. now_ms, '+inf'), now_ms}
for i = 1, #live, 2 do
  local info = redis.call('HGET', sem, 'p:' .. live[i]) or ''
  reply[#reply + 1] = live[i]
  local n = 0
  for field in string.gmatch(info .. '\t', '([^\t]*)\t') do
    n = n + 1
    if n > 1 and n <= 7 then
      reply[#reply + 1] = field
    end
  end
  for _ = n + 1, 7 do
    reply[#reply + 1] = ''
  end
  reply[#reply + 1] = live[i + 1]
end
return reply
