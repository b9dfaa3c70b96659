-- Append one event to a name's history, for the events only the client sees: a lease found
-- lost at release, a --wait that timed out, a command stopped by --max-run, a --once-per slot
-- found done. (Acquisitions, releases, no-wait refusals and forced releases are recorded by
-- their own scripts.) The events that end or skip a run are counted too (lib/runs.lua).
--
--   redis-cli --eval build/lua/history_add.lua dlock:{job}:history dlock:{job}:runs , \
--     event lost mode x host web-1 pid 4242 user alice command ./job.sh duration_ms 5000
--
-- KEYS[1]: the history stream (capped at about 1000 entries, kept 30 days after its last
-- write). KEYS[2] (optional): the run counters, where a `lost` event counts lost and a `skip`
-- counts skipped_paused (with reason `paused`), skipped_slot_done (with a `slot` field) or
-- skipped_busy. ARGV: field, value, ...; empty
-- values are left out. With a duration_ms field, the event ended now and started duration_ms
-- ago, both in server time (end_ms, start_ms).
-- Returns the entry id.
--@include lib/history_event.lua
--@include lib/runs.lua
local history = KEYS[1]
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local args, given = history_event(history, now_ms)
-- Counted first: a history key of another type fails the XADD, never the count.
if given.event == 'lost' then
  count_run(KEYS[2], 'lost', given.host or '', given.exit_status or '',
            string.format('%.0f', now_ms), string.format('%.0f', tonumber(given.duration_ms) or 0))
elseif given.event == 'skip' and given.reason == 'paused' then
  count_skip(KEYS[2], 'skipped_paused')
elseif given.event == 'skip' then
  count_skip(KEYS[2], given.slot and 'skipped_slot_done' or 'skipped_busy')
end

return history_event_add(history, args)
