-- Read only: {state, microseconds until a probe is admitted (OPEN only)}.
local now = now_micros()
local s = redis.call('HMGET', KEYS[1], 'state', 'probe_at')
local state = s[1] or 'C'
if state == 'O' then
  return {state, math.max(0, tonumber(s[2]) - now)}
end
return {state, 0}
