-- Append one event to a name's history, for the events only the client sees: a lease found
-- lost at release, and a --wait that timed out. (Acquisitions, releases, no-wait refusals and
-- forced releases are recorded by their own scripts.)
--
--   redis-cli --eval build/lua/history_add.lua dlock:{job}:history , \
--     event lost mode x host web-1 pid 4242 user alice command ./job.sh duration_ms 5000
--
-- KEYS[1]: the history stream (capped at about 1000 entries, kept 30 days after its last
-- write). ARGV: field, value, ...; empty values are left out. With a duration_ms field, the
-- event ended now and started duration_ms ago, both in server time (end_ms, start_ms).
-- Returns the entry id.
--@include lib/history.lua
local history = KEYS[1]
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local args = {'XADD', history, 'MAXLEN', '~', HISTORY_MAXLEN, '*'}
for i = 1, #ARGV - 1, 2 do
  if ARGV[i + 1] ~= '' then
    args[#args + 1] = ARGV[i]
    args[#args + 1] = ARGV[i + 1]
    if ARGV[i] == 'duration_ms' then
      local start = now_ms - (tonumber(ARGV[i + 1]) or 0)
      args[#args + 1] = 'start_ms'
      args[#args + 1] = string.format('%.0f', start)
      args[#args + 1] = 'end_ms'
      args[#args + 1] = string.format('%.0f', now_ms)
    end
  end
end
local id = redis.call(unpack(args))
redis.call('PEXPIRE', history, HISTORY_TTL_MS)
return id
