-- `--compat`: the dlock side's record of a run on another library's lock, under dlock's own
-- prefix: the lock itself belongs to the other side's format, which has no room for it (and in
-- a Cluster may live in another slot). One event in the history; a `release` with an `outcome`
-- field, a `lost` and a `skip` are counted in the run counters (lib/runs.lua) as the native
-- scripts count them.
--
--   redis-cli --eval build/lua/compat_record.lua dlock:{job}:history dlock:{job}:runs , \
--     event release compat redisson host web-1 outcome ok exit_status 0 duration_ms 5000
--
-- ARGV: field, value, ...; empty values are left out. Returns the entry id.
--@include lib/history.lua
--@include lib/runs.lua
local history, runs = KEYS[1], KEYS[2]
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local args = {'XADD', history, 'MAXLEN', '~', HISTORY_MAXLEN, '*'}
local given = {}
for i = 1, #ARGV - 1, 2 do
  if ARGV[i + 1] ~= '' then
    given[ARGV[i]] = ARGV[i + 1]
    args[#args + 1] = ARGV[i]
    args[#args + 1] = ARGV[i + 1]
  end
end
if given.event == 'release' and given.outcome then
  count_run(runs, given.outcome, given.host or '', given.exit_status or '',
            string.format('%.0f', now_ms), given.duration_ms or '0')
elseif given.event == 'lost' then
  count_run(runs, 'lost', given.host or '', given.exit_status or '',
            string.format('%.0f', now_ms), given.duration_ms or '0')
elseif given.event == 'skip' then
  count_skip(runs, 'skipped_busy')
end
local id = redis.call(unpack(args))
history_compact(history)
redis.call('PEXPIRE', history, HISTORY_TTL_MS)
return id
