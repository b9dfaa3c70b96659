-- `release --force --compat FORMAT NAME`: deletes the other library's lock whoever holds it,
-- when the key is of the format's type (TYPE_WANTED: "hash" for Redisson, "string" for the
-- setnx family); a key of any other type is someone else's data and is left alone. With a
-- CHANNEL (Redisson; an argument, not a key: a channel has no Cluster slot), PUBLISHes the
-- unlock message 0 there, so Redisson's waiters retry at once instead of sleeping out the lease
-- they were told. The holders notice at their next renewal.
--
--   redis-cli --eval build/lua/compat_force_release.lua inventory-sync , \
--     hash redisson_lock__channel:{inventory-sync}
--
-- ARGV: TYPE_WANTED, CHANNEL (optional). Returns what it found, as compat_status.lua: deleted
-- when its type is TYPE_WANTED.
--@include lib/compat_reading.lua
local key, wanted, channel = KEYS[1], ARGV[1], ARGV[2]
local found = compat_reading(key)
if found[1] ~= wanted then
  return found
end
redis.call('DEL', key)
if channel then
  redis.call('PUBLISH', channel, '0')
end
return found
