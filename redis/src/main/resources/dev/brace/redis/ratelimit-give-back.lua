-- Undoes one take that will not be used, without filling the bucket beyond its capacity.
-- KEYS[1] the bucket; ARGV[1] emission interval (us).
local now = now_micros()
local full_at = tonumber(redis.call('GET', KEYS[1]))
if not full_at or full_at <= now then
  return {0}
end
local earlier = full_at - tonumber(ARGV[1])
if earlier < now then
  earlier = now
end
redis.call('SET', KEYS[1], int(earlier), 'PX', int(math.floor((earlier - now) / 1000) + 1000))
return {1}
