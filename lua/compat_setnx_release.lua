-- `--compat setnx`: compare-and-delete, as every library of this family releases: a key that
-- holds another value is left alone. With KEEP_MS > 0 (--min-hold not yet over) the key is kept
-- that much longer instead of deleted, as ShedLock's lockAtLeastFor does.
--
--   redis-cli --eval build/lua/compat_setnx_release.lua report:daily , TOKEN KEEP_MS
--
-- Returns 1 if it was ours (now released), 0 if not (gone, or another's).
local key, token, keep = KEYS[1], ARGV[1], tonumber(ARGV[2]) or 0
if redis.call('TYPE', key).ok ~= 'string' or redis.call('GET', key) ~= token then
  return 0
end
if keep > 0 then
  redis.call('PEXPIRE', key, keep)
else
  redis.call('DEL', key)
end
return 1
