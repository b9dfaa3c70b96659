-- lib/history_event.lua: an event given by the caller as ARGV, appended to a history.

--@include lib/history.lua

-- The XADD of the event whose fields are ARGV (field, value, ...; empty values left out), and
-- those fields by name. A duration_ms field also gives the event's span in server time:
-- start_ms (now_ms - duration) and end_ms (now_ms).
local function history_event(history, now_ms)
  local args = {'XADD', history, 'MAXLEN', '~', HISTORY_MAXLEN, '*'}
  local given = {}
  for i = 1, #ARGV - 1, 2 do
    if ARGV[i + 1] ~= '' then
      given[ARGV[i]] = ARGV[i + 1]
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
  return args, given
end

-- Appends the event `args` and keeps the history another HISTORY_TTL_MS. Returns the entry id.
local function history_event_add(history, args)
  local id = redis.call(unpack(args))
  history_compact(history)
  redis.call('PEXPIRE', history, HISTORY_TTL_MS)
  return id
end
