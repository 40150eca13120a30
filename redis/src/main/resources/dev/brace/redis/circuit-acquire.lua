-- Admits a call. KEYS[1] the circuit; ARGV[1] probe lease (us), ARGV[2] this caller's token,
-- ARGV[3] ttl (ms). Returns {1, gen, failures} admitted while CLOSED; {2, gen, moved} admitted as
-- the probe (moved = 1 when this call moved OPEN to HALF_OPEN); {0, retry_after_us} refused while
-- OPEN; {3} refused while HALF_OPEN with its probe in flight.
local h = KEYS[1]
local now = now_micros()
local s = redis.call('HMGET', h, 'state', 'gen', 'probe_at', 'lease', 'failures')
local state = s[1] or 'C'
local gen = tonumber(s[2]) or 0
if state == 'C' then
  return {1, gen, tonumber(s[5]) or 0}
end
local lease_until = int(now + tonumber(ARGV[1]))
if state == 'O' then
  local probe_at = tonumber(s[3])
  if now < probe_at then
    return {0, probe_at - now}
  end
  gen = gen + 1
  redis.call('HSET', h, 'state', 'H', 'gen', int(gen), 'successes', 0, 'lease', lease_until, 'lease_id', ARGV[2])
  touch(h, ARGV[3])
  return {2, gen, 1}
end
if (tonumber(s[4]) or 0) > now then
  return {3}
end
redis.call('HSET', h, 'lease', lease_until, 'lease_id', ARGV[2])
touch(h, ARGV[3])
return {2, gen, 0}
