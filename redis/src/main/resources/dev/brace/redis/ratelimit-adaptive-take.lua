-- Takes one token from an adaptive (AIMD) bucket: the generic-cell-rate bucket of ratelimit-take.lua
-- whose rate lives beside it in one hash, so every machine of a fleet draws at the rate they backed
-- off to together. The successes a machine saw since its last take raise the rate first.
-- KEYS[1] the hash {full_at, rate}; ARGV[1] per (us), ARGV[2] permits, ARGV[3] span of burst tokens
-- at the full rate (us), ARGV[4] max wait (us), ARGV[5] successes to add, ARGV[6] increase each,
-- ARGV[7] floor (permits per period). The rate is kept within the caller's floor and permits, so
-- new settings (or, during a rolling change, another machine's) bound it from their first take.
-- Returns {1, wait, full_at, rate} when the token is the caller's, {0, wait, 0, rate} when refused;
-- the rate as text, since Redis would truncate a Lua number to an integer.
local now = now_micros()
local per = tonumber(ARGV[1])
local permits = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'full_at', 'rate')
local full_at = tonumber(state[1]) or now
local rate = math.max(tonumber(ARGV[7]), math.min(permits, tonumber(state[2]) or permits))
local successes = tonumber(ARGV[5])
if successes > 0 and rate < permits then
  rate = math.min(permits, rate + successes * tonumber(ARGV[6]))
end
if full_at < now then
  full_at = now
end
local interval = math.max(1, math.ceil(per / rate))
local capacity = math.max(tonumber(ARGV[3]), interval)
local wait = full_at - now + interval - capacity
local admitted = 0
if wait <= tonumber(ARGV[4]) then
  admitted = 1
  full_at = full_at + interval
end
redis.call('HSET', KEYS[1], 'full_at', int(full_at), 'rate', tostring(rate))
-- Kept a minute past full, so a fleet that backed off does not forget it over a short lull.
redis.call('PEXPIRE', KEYS[1], int(math.floor((full_at - now) / 1000) + 60000))
return {admitted, wait, int(full_at), tostring(rate)}
