-- Read only: {how far (us) the adaptive bucket is from full, its rate as text (empty: never set)}.
local now = now_micros()
local state = redis.call('HMGET', KEYS[1], 'full_at', 'rate')
local full_at = tonumber(state[1]) or now
local owed = 0
if full_at > now then
  owed = full_at - now
end
return {owed, state[2] or ''}
