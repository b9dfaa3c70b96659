-- End the pause of a name (`dlock resume`): runs may take it again. Recorded in its history.
--
--   redis-cli --eval build/lua/resume.lua dlock:{job}:paused dlock:{job}:history , USER HOST PID
--
-- KEYS: the pause (hash, lua/pause.lua), the history stream.
-- ARGV: who resumes (user, host, pid).
-- Returns {1, paused by, reason, since ms} when the name was paused, {0} when it was not;
-- then the history error if the history could not be written.

--@include lib/history.lua

local paused, history = KEYS[1], KEYS[2]
local p = redis.call('HMGET', paused, 'by', 'host', 'reason', 'since')
if not p[4] then
  return {0}
end
redis.call('DEL', paused)
local by = p[2] ~= '' and p[1] .. '@' .. p[2] or p[1]
local err = history_add_present(history, 'event', 'resume', 'user', ARGV[1], 'host', ARGV[2],
                                'pid', ARGV[3], 'paused_by', by, 'reason', p[3] or '')
return with_error({1, by, p[3] or '', tonumber(p[4])}, err)
