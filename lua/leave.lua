-- A waiter gives up (timeout or signal): leave the queue, and wake whoever can now proceed,
-- so a departing head (or a departing writer that held readers back) never stalls the queue.
-- A grant the waiter got meanwhile (lib/grant.lua) is given back and handed on: the waiter
-- gives up only after a refusal, never after it took a grant, so the grant is untaken.
--
--   redis-cli --eval build/lua/leave.lua dlock:{job}:lock dlock:{job}:queue dlock:{job}:alive \
--     dlock:{job}:wake: dlock:{job}:readers dlock:{job}:xqueue dlock:{job}:winfo \
--     dlock:{job}:fence dlock:{job}:history , WAITER HEARTBEAT_MS
--
-- KEYS[7..9] (the waiters' details, the fencing counter, the history) are optional: given,
-- grants are on.
-- Returns 1.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/waiters.lua
--@include lib/lock_wake.lua

local lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers, xqueue = KEYS[5], KEYS[6]
local waiter, heartbeat = ARGV[1], tonumber(ARGV[2])
local q = {queue = queue, xqueue = xqueue, alive = alive, wake = wake, info = KEYS[7],
           fence = KEYS[8], history = KEYS[9], heartbeat = heartbeat}

if q.info and redis.call('HGET', lock, 'grant') == waiter then
  local t = redis.call('TIME')
  end_grant(q, lock, waiter, tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
end
drop_waiter(q, waiter)
wake_lock_waiters(q, lock, readers, heartbeat)
return 1
