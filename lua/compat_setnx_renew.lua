-- `--compat setnx`: extend our lease by the other side's own rule (redis-py's extend,
-- node-redlock's and redsync's scripts): only while the key still holds our value.
--
--   redis-cli --eval build/lua/compat_setnx_renew.lua report:daily , TOKEN TTL_MS
--
-- Returns 1 if renewed, 0 if the key is gone or holds another value (the lease is lost).
local key, token = KEYS[1], ARGV[1]
if redis.call('TYPE', key).ok ~= 'string' or redis.call('GET', key) ~= token then
  return 0
end
redis.call('PEXPIRE', key, ARGV[2])
return 1
