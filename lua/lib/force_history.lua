-- lib/force_history.lua: record a forced release (`dlock release --force`) in the history.

--@include lib/history.lua

-- Record that `forcer` ({host, pid, user, cmd}) broke the holders `broken` (each {mode or permit
-- id, host, pid, user, cmd, since ms, fence}; the first is described, the others counted, and
-- all their tokens listed when more than one, so that each holder can find the force that broke
-- it) and woke `woken` waiters. `mode`: the event's mode; `permit`: the first permit broken, or nil.
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
  if #broken > 1 then
    local fences = {}
    for i, b in ipairs(broken) do
      fences[i] = ms(b[7])
    end
    fields[#fields + 1] = 'other_fences'
    fields[#fields + 1] = table.concat(fences, ' ')
  end
  return history_append(history, fields) or ''
end

-- How many of a name's latest history entries renew.lua searches for the force that broke a
-- lease. The force comes at most a renewal interval (TTL/3) before the holder's renewal finds
-- its lease gone; only the acquisitions, skips and releases of others can come in between.
local FORCE_LOOKBACK = '50'

-- The `release --force` that broke the hold with fencing token `fence` (digits), found among
-- the last FORCE_LOOKBACK entries of `history`: {host, pid, user, time ms} of the forcer, or nil.
-- Tokens are unique per name, so an older force cannot be mistaken for this one.
local function find_force(history, fence)
  local entries = redis.pcall('XREVRANGE', history, '+', '-', 'COUNT', FORCE_LOOKBACK)
  if type(entries) ~= 'table' or entries.err then
    return nil
  end
  for _, entry in ipairs(entries) do
    local f = {}
    for i = 1, #entry[2], 2 do
      f[entry[2][i]] = entry[2][i + 1]
    end
    if f.event == 'force' and (f.other_fence == fence or
        string.find(' ' .. (f.other_fences or '') .. ' ', ' ' .. fence .. ' ', 1, true)) then
      return {f.host or '', tonumber(f.pid) or 0, f.user or '',
              tonumber(string.match(entry[1], '^%d+'))}
    end
  end
  return nil
end
