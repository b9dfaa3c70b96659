-- lib/runs.lua: count a name's runs by outcome (lock/runs.hpp), in the hash `runs`
-- ("<prefix>:{NAME}:runs"), from the scripts that write its history.
--
-- Fields: one counter per outcome (ok, failed, timed_out, lost, skipped_busy, skipped_paused,
-- skipped_slot_done, unknown); the last finished run (last_outcome, last_end_ms, last_duration_ms,
-- last_exit, last_host) and the last success (success_end_ms, success_duration_ms,
-- success_host). Counters only grow, so they outlive the history's trimming; the hash expires a
-- year and a month after its last write (a yearly job's counters survive between its runs).
-- Like the history, counting must never fail what it counts: errors are swallowed (pcall).

local RUNS_TTL_MS = '34560000000'

-- A finished run: `outcome` is ok, failed, timed_out, lost or unknown (a hold of `dlock acquire`
-- that ended with its script: no exit status); times in server ms (digits).
local function count_run(runs, outcome, host, exit_status, end_ms, duration_ms)
  if not runs or outcome == '' then
    return
  end
  redis.pcall('HINCRBY', runs, outcome, 1)
  if outcome == 'ok' then
    redis.pcall('HSET', runs, 'last_outcome', outcome, 'last_end_ms', end_ms,
                'last_duration_ms', duration_ms, 'last_exit', exit_status, 'last_host', host,
                'success_end_ms', end_ms, 'success_duration_ms', duration_ms,
                'success_host', host)
  else
    redis.pcall('HSET', runs, 'last_outcome', outcome, 'last_end_ms', end_ms,
                'last_duration_ms', duration_ms, 'last_exit', exit_status, 'last_host', host)
  end
  redis.pcall('PEXPIRE', runs, RUNS_TTL_MS)
end

-- A run that did not start: `outcome` is skipped_busy, skipped_slot_done or skipped_paused.
local function count_skip(runs, outcome)
  if not runs then
    return
  end
  redis.pcall('HINCRBY', runs, outcome, 1)
  redis.pcall('PEXPIRE', runs, RUNS_TTL_MS)
end
