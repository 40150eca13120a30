-- Takes one token from a generic-cell-rate bucket, now or in the future. The whole state is one
-- instant, when the bucket is full again (microseconds); it expires once that instant has passed,
-- since an expired key and a full bucket are the same thing. The settings are the caller's, so new
-- ones apply from their first take, and during a rolling change each machine takes by its own: the
-- instant stays one, and the rate it moves at follows the fleet's mix of settings.
-- KEYS[1] the bucket; ARGV[1] emission interval, ARGV[2] capacity span, ARGV[3] max wait (us).
-- Returns {1, wait, full_at} when the token is the caller's (wait <= 0: at once; full_at names the
-- reservation for a give-back), {0, wait} when refused.
local now = now_micros()
local interval = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local max_wait = tonumber(ARGV[3])
local full_at = tonumber(redis.call('GET', KEYS[1])) or now
if full_at < now then
  full_at = now
end
local wait = full_at - now + interval - capacity
if wait > max_wait then
  return {0, wait}
end
full_at = full_at + interval
redis.call('SET', KEYS[1], int(full_at), 'PX', int(math.floor((full_at - now) / 1000) + 1000))
return {1, wait, int(full_at)}
