-- Pause a name (`dlock pause`): until the pause ends, every `run` and `acquire` of it is
-- refused as paused whatever its --wait (lua/acquire.lua), so no queue builds up to burst
-- when it ends. The waiters queued now are dropped and woken: they ask again, are refused as
-- paused and exit. A grant a release left to a waiter that has not taken it yet is ended (its
-- command has not started). A holder is not disturbed: it runs to its end.
--
--   redis-cli --eval build/lua/pause.lua dlock:{job}:paused dlock:{job}:lock dlock:{job}:queue \
--     dlock:{job}:alive dlock:{job}:wake: dlock:{job}:xqueue dlock:{job}:winfo \
--     dlock:{job}:history dlock:{job}:readers , FOR_MS USER HOST PID REASON HEARTBEAT_MS
--
-- KEYS: the pause (hash: by, host, pid, reason, since, until), then the lock's keys the pause
--       acts on: lock hash, queue, heartbeats, prefix of the wake lists, exclusive waiters,
--       waiters' details, history stream, shared holds.
-- ARGV: how long the pause lasts in ms ("0": until `dlock resume`), who pauses (user, host,
--       pid), why (may be ""), the waiters' heartbeat ms (wake lists live twice that).
-- Returns {until ms (0: no end), since ms, 1 if it replaced a pause (else 0), waiters dropped,
--          1 if the name is held (exclusive or shared, else 0)}, then the history error if
--          the history could not be written.

--@include lib/history.lua
--@include lib/waiters.lua
--@include lib/wake.lua
--@include lib/grant.lua

local paused, lock, queue, alive, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local xqueue, winfo, history, readers = KEYS[6], KEYS[7], KEYS[8], KEYS[9]
local for_ms, heartbeat = tonumber(ARGV[1]), tonumber(ARGV[6])

local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ms = for_ms > 0 and now_ms + for_ms or 0
local q = {queue = queue, xqueue = xqueue, alive = alive, wake = wake, info = winfo,
           fence = nil, history = history, heartbeat = heartbeat}

local replaced = redis.call('EXISTS', paused)
redis.call('DEL', paused)
redis.call('HSET', paused, 'by', ARGV[2], 'host', ARGV[3], 'pid', ARGV[4], 'reason', ARGV[5],
           'since', ms(now_ms), 'until', ms(until_ms))
if for_ms > 0 then
  redis.call('PEXPIRE', paused, ARGV[1])
end

-- An untaken grant: its waiter has not started; the lock goes, and the waiter asks again.
local granted_to = redis.call('HGET', lock, 'grant')
local grant_left = granted_to and untaken_grant(q, lock, now_ms)
if grant_left and grant_left > 0 then
  end_grant(q, lock, granted_to, now_ms)
end
if grant_left then
  wake_up(wake .. granted_to, 2 * heartbeat)
end

local waiters = redis.call('ZRANGE', queue, 0, -1)
for _, id in ipairs(waiters) do
  drop_waiter(q, id)
  wake_up(wake .. id, 2 * heartbeat)
end

local held = (redis.call('EXISTS', lock) == 1 or
              redis.call('ZCOUNT', readers, '(' .. now_ms, '+inf') > 0) and 1 or 0
local err = history_add_present(history, 'event', 'pause', 'user', ARGV[2], 'host', ARGV[3],
                                'pid', ARGV[4], 'reason', ARGV[5],
                                'until_ms', until_ms > 0 and ms(until_ms) or '')
return with_error({until_ms, now_ms, replaced, #waiters, held}, err)
