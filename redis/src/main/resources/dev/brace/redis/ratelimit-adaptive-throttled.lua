-- The dependency throttled a call: the fleet's rate is multiplied by the decrease (not below the
-- floor) and, with a hint, the bucket hands out nothing before the hint has passed.
-- KEYS[1] the hash {full_at, rate}; ARGV[1] per (us), ARGV[2] permits, ARGV[3] span of burst tokens
-- at the full rate (us), ARGV[4] decrease, ARGV[5] floor (permits per period), ARGV[6] block (us).
-- Returns {rate before, rate after}, as text.
local now = now_micros()
local per = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'full_at', 'rate')
local full_at = tonumber(state[1]) or now
-- Within the caller's bounds first, as its take would keep it (new settings, a rolling change).
local from = math.max(tonumber(ARGV[5]), math.min(tonumber(ARGV[2]), tonumber(state[2]) or tonumber(ARGV[2])))
local rate = math.max(tonumber(ARGV[5]), from * tonumber(ARGV[4]))
local block = tonumber(ARGV[6])
if block > 0 then
  local interval = math.max(1, math.ceil(per / rate))
  local blocked = now + block + math.max(tonumber(ARGV[3]), interval) - interval
  if full_at < blocked then
    full_at = blocked
  end
end
redis.call('HSET', KEYS[1], 'full_at', int(full_at), 'rate', tostring(rate))
redis.call('PEXPIRE', KEYS[1], int(math.floor(math.max(0, full_at - now) / 1000) + 60000))
return {tostring(from), tostring(rate)}
