-- A waiter gives up (timeout or signal): leave the queue, and wake whoever can now proceed,
-- so a departing head (or a departing writer that held readers back) never stalls the queue.
--
--   redis-cli --eval build/lua/leave.lua dlock:{job}:lock dlock:{job}:queue dlock:{job}:alive \
--     dlock:{job}:wake: dlock:{job}:readers dlock:{job}:xqueue , WAITER HEARTBEAT_MS
--
-- Returns 1.

-- Pieces shared with other scripts, inserted here at build time (see docs/internals.md, "Keys"):
--@include lib/waiters.lua
--@include lib/lock_wake.lua

local lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local readers, xqueue = KEYS[5], KEYS[6]
local waiter, heartbeat = ARGV[1], tonumber(ARGV[2])
local q = {queue = queue, xqueue = xqueue, alive = alive, wake = wake}

drop_waiter(q, waiter)
wake_lock_waiters(q, lock, readers, heartbeat)
return 1
