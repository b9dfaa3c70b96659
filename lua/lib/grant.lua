-- lib/grant.lua: hand a free lock straight to the exclusive waiter at the head of its queue, so
-- the waiter starts its command when it is woken, without asking again.
--
-- A grant is an exclusive lease like any other (owner, hold id, fencing token, holder details,
-- the waiter's own TTL), plus `grant` (the waiter id) and `grant_by` (the waiter's heartbeat
-- deadline, server ms), and a token "g<fence>" pushed to the waiter's wake list. The waiter takes
-- the grant by popping that token (BLPOP), or by asking again (acquire.lua finds it the owner).
-- A grant whose token is still in the list is untaken; past `grant_by` (the waiter's heartbeat
-- deadline, and at most one heartbeat after the grant) its waiter counts as dead, as a waiter
-- silent that long is dropped from the queue, and the next script that finds it ends it and
-- hands the name on. Whoever is next in the queue then is the one to find it: if its deadline
-- was further off (a deep waiter may stay silent longer, lib/waiters.lua), it is cut to one
-- heartbeat and the waiter nudged to come back within that. A taken grant is never ended that
-- way: popping the token is atomic with the scripts, so once popped, only the waiter's own
-- release ends it.
--
-- `q` names the queue's keys (lib/waiters.lua) and, for grants, q.info (hash waiter id ->
-- "owner\thold\tttl\thost\tpid\tuser\tcmd", kept by enqueue_waiter), q.fence (the fencing
-- counter), q.history (the history stream, or nil) and q.heartbeat (ms).

--@include lib/waiters.lua
--@include lib/wake.lua
--@include lib/fence.lua
--@include lib/history.lua

-- The token a grant pushes to its waiter's wake list.
local function grant_token(fence)
  return 'g' .. ms(tonumber(fence))
end

-- The history event of a grant, or of its end: names and values alternating, empty values left
-- out like every writer of the history does.
local function record_grant(q, fields)
  local kept = {}
  for i = 1, #fields - 1, 2 do
    if fields[i + 1] and fields[i + 1] ~= '' then
      kept[#kept + 1] = fields[i]
      kept[#kept + 1] = fields[i + 1]
    end
  end
  history_append(q.history, kept)
end

-- The waiters next in line must come back within a heartbeat: they are the ones to notice a
-- grant their predecessor never takes. All of the first WINDOW_STEP, not only the new head, so
-- that several dead waiters in a row lapse together instead of one heartbeat each; a waiter is
-- cut back once, when it comes that near the head, so this costs one nudge per waiter whatever
-- the queue's length.
local function nudge_next(q, now_ms)
  local by = now_ms + q.heartbeat
  for _, id in ipairs(redis.call('ZRANGE', q.queue, 0, WINDOW_STEP - 1)) do
    local deadline = tonumber(redis.call('ZSCORE', q.alive, id))
    if deadline and deadline > by then
      redis.call('ZADD', q.alive, 'XX', by, id)
      wake_with(q.wake .. id, 'n', 2 * q.heartbeat)
    end
  end
end

-- Hand the free lock `lock` to waiter `id`, the live exclusive head of the queue, at server time
-- `t` (`now_ms` in ms). false, with nothing done, when grants are off (no q.info) or the waiter
-- left no details (queued by a client that takes the lease itself).
local function grant_lock(q, lock, id, t, now_ms)
  if not q.info then
    return false
  end
  local info = redis.call('HGET', q.info, id)
  local deadline = redis.call('ZSCORE', q.alive, id)
  if not info or not deadline then
    return false
  end
  local owner, hold, ttl, host, pid, user, cmd =
    string.match(info, '^([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$')
  ttl = tonumber(ttl)
  if not owner or not ttl then
    return false
  end
  local token = next_fence(q.fence, t)
  redis.call('HSET', lock, 'owner', owner, 'holds', 1, 'h:' .. hold, 1, 'fence', token,
             'since', now_ms, 'ttl', ttl, 'host', host, 'pid', pid, 'user', user, 'cmd', cmd,
             'grant', id, 'grant_by', math.min(tonumber(deadline), now_ms + q.heartbeat))
  redis.call('PEXPIRE', lock, ttl)
  drop_waiter(q, id)
  nudge_next(q, now_ms)
  local list = q.wake .. id
  redis.call('RPUSH', list, grant_token(token))
  redis.call('PEXPIRE', list, ttl)
  record_grant(q, {'event', 'acquire', 'mode', 'x', 'host', host, 'pid', pid, 'user', user,
                   'command', cmd, 'fence', ms(token), 'start_ms', ms(now_ms)})
  return true
end

-- End the grant on `lock` to waiter `id` (it gave up, or never took it): the lock goes, with the
-- token, and the history records its release.
local function end_grant(q, lock, id, now_ms)
  local h = redis.call('HMGET', lock, 'host', 'pid', 'user', 'cmd', 'since', 'fence')
  redis.call('DEL', lock)
  redis.call('DEL', q.wake .. id)
  local since = tonumber(h[5]) or now_ms
  record_grant(q, {'event', 'release', 'mode', 'x', 'host', h[1], 'pid', h[2], 'user', h[3],
                   'command', h[4], 'fence', h[6], 'start_ms', ms(since), 'end_ms', ms(now_ms),
                   'duration_ms', ms(math.max(0, now_ms - since))})
end

-- An untaken grant on `lock` at `now_ms`: nil if there is none (or its waiter took it), else the
-- ms left before it may be ended; 0 when it was past its deadline and has just been ended (the
-- lock is free now).
local function untaken_grant(q, lock, now_ms)
  local g = redis.call('HMGET', lock, 'grant', 'grant_by', 'fence')
  if not g[1] or redis.call('LINDEX', q.wake .. g[1], 0) ~= grant_token(g[3]) then
    return nil
  end
  local left = tonumber(g[2]) - now_ms
  if left > 0 then
    return left
  end
  end_grant(q, lock, g[1], now_ms)
  return 0
end
