-- lib/history.lua: append to a name's history stream.

-- A history keeps about this many entries, for this long (30 days) after its last write. As
-- strings: Redis formats a Lua number argument with a costly printf("%.17g") on every call.
local HISTORY_MAXLEN = '1000'
local HISTORY_TTL_MS = '2592000000'

-- A number of ms (or a fencing token) as the digits of an integer: Lua would write 1.7e+12.
-- (Integer formatting: "%.0f" goes through the much slower floating-point printf.)
local function ms(n)
  return string.format('%d', n)
end

-- A new stream's first node is allocated for a full node (stream-node-max-bytes) whatever it
-- holds; a copy made by DUMP and RESTORE holds its entries alone, and later entries grow it
-- by what they take. A name used once or twice would otherwise cost that node in Redis for the
-- history's whole life. Cheap while the stream is that short, and never fails the caller.
local function history_compact(history)
  local length = redis.pcall('XLEN', history)
  if length == 1 or length == 2 then
    local dumped = redis.pcall('DUMP', history)
    if type(dumped) == 'string' then
      redis.pcall('RESTORE', history, '0', dumped, 'REPLACE')
    end
  end
end

-- Append an event (its fields: the arguments after `history`, names and values alternating) to
-- the stream `history` (nil: no history kept), capped at about 1000 entries and kept 30 days
-- after its last write. It must never fail the operation it records: an error is returned, not
-- raised. Fields given as arguments spare building a table (Lua 5.1 grows one by rehashing).
local function history_add(history, ...)
  if not history then
    return nil
  end
  local added = redis.pcall('XADD', history, 'MAXLEN', '~', HISTORY_MAXLEN, '*', ...)
  if type(added) == 'table' and added.err then
    return added.err
  end
  history_compact(history)
  redis.pcall('PEXPIRE', history, HISTORY_TTL_MS)
  return nil
end

-- history_add with the fields in a table.
local function history_append(history, fields)
  return history_add(history, unpack(fields))
end

-- history_add, leaving out the fields whose value is missing (nil) or empty.
local function history_add_present(history, ...)
  local given, fields = {...}, {}
  for i = 1, select('#', ...), 2 do
    if given[i + 1] and given[i + 1] ~= '' then
      fields[#fields + 1] = given[i]
      fields[#fields + 1] = given[i + 1]
    end
  end
  return history_append(history, fields)
end

-- `reply`, with the history error `err` appended when there was one.
local function with_error(reply, err)
  if err then
    reply[#reply + 1] = err
  end
  return reply
end
