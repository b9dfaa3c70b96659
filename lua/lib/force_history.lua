-- lib/force_history.lua: record a forced release (`dlock release --force`) in the history.

--@include lib/history.lua

-- Record that `forcer` ({host, pid, user, cmd}) broke the holders `broken` (each {mode or permit
-- id, host, pid, user, cmd, since ms, fence}; the first is described, the others counted) and
-- woke `woken` waiters. `mode`: the event's mode; `permit`: the first permit broken, or nil.
-- Returns the history error, or '' when there was none.
local function record_force(history, mode, permit, forcer, broken, woken)
  local first = broken[1]
  local fields = {'event', 'force', 'mode', mode, 'host', forcer[1], 'pid', forcer[2],
                  'user', forcer[3], 'command', forcer[4]}
  if permit then
    fields[#fields + 1] = 'permit'
    fields[#fields + 1] = permit
  end
  for _, v in ipairs({'other_host', first[2], 'other_pid', tostring(first[3]),
                      'other_user', first[4], 'other_command', first[5],
                      'other_since_ms', ms(first[6]), 'other_fence', ms(first[7]),
                      'other_count', tostring(#broken), 'woken', tostring(woken)}) do
    fields[#fields + 1] = v
  end
  return history_append(history, fields) or ''
end
