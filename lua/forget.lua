-- Forget a free name (`dlock forget NAME`): its history, run counters, fencing counter and
-- once-per slot go, so it leaves `dlock metrics`, `status --watch` and `check`. A name that is
-- held (an exclusive lease, also one kept by --min-hold; a live shared hold; a live permit of
-- the semaphore of the same name) is refused and nothing changes: its holder will write them
-- again, and its token must keep growing.
--
--   redis-cli --eval build/lua/forget.lua dlock:{job}:lock dlock:{job}:readers \
--     dlock:{job}:permits dlock:{job}:history dlock:{job}:runs dlock:{job}:fence dlock:{job}:slot
--
-- KEYS: lock hash, shared holds (zset hold id -> deadline ms), semaphore permits (zset permit
--       id -> deadline ms), then the keys forgotten: history stream, run counters, fencing
--       counter, once-per slot.
-- ARGV: none.
-- Returns {held, keys removed}: held is "" (free: the keys are gone), "x" (exclusive lease),
--   "s" (shared holds) or "p" (semaphore permits); keys removed is 0 when held.

local lock, readers, permits = KEYS[1], KEYS[2], KEYS[3]

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

if redis.call('EXISTS', lock) == 1 then
  return {'x', 0}
end
if redis.call('ZCOUNT', readers, '(' .. now_ms, '+inf') > 0 then
  return {'s', 0}
end
if redis.call('ZCOUNT', permits, '(' .. now_ms, '+inf') > 0 then
  return {'p', 0}
end

-- The fencing counter may go: a missing counter restarts from the server clock in
-- microseconds (lib/fence.lua), above every token handed out before.
return {'', redis.call('DEL', KEYS[4], KEYS[5], KEYS[6], KEYS[7])}
