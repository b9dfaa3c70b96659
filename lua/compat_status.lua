-- `status --compat FORMAT NAME`: the other library's key as it is, read in one step so the
-- holder and its lease left belong together. Reads only.
--
--   redis-cli --eval build/lua/compat_status.lua inventory-sync
--
-- Returns {type, PTTL ms (-1 no expiry, -2 no key), holder...}: a hash adds field, count, ...;
-- a string its value; another type (or "none") nothing.
--@include lib/compat_reading.lua
return compat_reading(KEYS[1])
