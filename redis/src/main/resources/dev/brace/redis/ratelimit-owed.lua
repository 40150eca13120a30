-- Read only: {how far (us) the bucket is from full}.
local now = now_micros()
local full_at = tonumber(redis.call('GET', KEYS[1])) or now
if full_at < now then
  return {0}
end
return {full_at - now}
