-- A waiter gives up (timeout): remove its registration and its wake list.
--
--   redis-cli --eval build/lua/latch_leave.lua dlock:{job}:latch-waiters \
--     dlock:{job}:latch-wake: , WAITER_ID
--
-- KEYS[1] zset of waiters, KEYS[2] prefix of the per-waiter wake lists. ARGV[1] waiter id.
-- Returns 1.
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2] .. ARGV[1])
return 1
