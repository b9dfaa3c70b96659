-- lib/holder.lua: holder info strings "owner\thost\tpid\tuser\tcmd\tsince_ms\tfence", as shared
-- holds (rinfo) and semaphore permits (p:<permit id>) keep them.

-- The holder info string of `owner`, on host `host` as process `pid` of `user` running `cmd`,
-- holding since `since_ms` with the fencing token `token` (integers: "%d" formats them without
-- the slower floating-point printf of "%.0f").
local function holder_info(owner, host, pid, user, cmd, since_ms, token)
  return table.concat({owner, host, pid, user, cmd, string.format('%d', since_ms),
                       string.format('%d', token)}, '\t')
end

-- The owner token of a holder info string.
local function holder_owner(info)
  return string.match(info, '^[^\t]*')
end

-- The fields of a holder info string: {owner, host, pid, user, cmd, since ms, fence}. The
-- command may contain tabs itself, so the fields around it are taken from both ends.
local function holder_fields(info)
  local owner, host, pid, user, rest =
    string.match(info, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$')
  local cmd, since, fence = string.match(rest or '', '^(.*)\t([^\t]*)\t([^\t]*)$')
  return {owner or info, host or '', tonumber(pid) or 0, user or '', cmd or '',
          tonumber(since) or 0, tonumber(fence) or 0}
end

-- The tab-separated fields of `info`, as strings. Unlike holder_fields, this also splits a
-- command that contains a tab.
local function tab_fields(info)
  local f = {}
  for field in string.gmatch(info .. '\t', '([^\t]*)\t') do
    f[#f + 1] = field
  end
  return f
end
