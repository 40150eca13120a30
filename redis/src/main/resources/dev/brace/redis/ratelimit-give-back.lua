-- Undoes the take that set the bucket to ARGV[2], if no take came after it, without filling the
-- bucket beyond its capacity. Giving back an earlier reservation would hand a later caller an
-- instant another caller already holds (more than burst at once), so such a token is dropped.
-- KEYS[1] the bucket; ARGV[1] emission interval (us); ARGV[2] the reservation's full_at (us).
local now = now_micros()
local full_at = tonumber(redis.call('GET', KEYS[1]))
if not full_at or full_at <= now or full_at ~= tonumber(ARGV[2]) then
  return {0}
end
local earlier = full_at - tonumber(ARGV[1])
if earlier < now then
  earlier = now
end
redis.call('SET', KEYS[1], int(earlier), 'PX', int(math.floor((earlier - now) / 1000) + 1000))
return {1}
