-- Shared by every Brace script. Time is the server's (TIME), in microseconds, so every machine of
-- a fleet judges by one clock. Lua numbers are doubles: microseconds since the epoch (~1.7e15) are
-- exact below 2^53, and string.format('%d') writes them without the exponent tostring would use.
local function now_micros()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end

local function int(n)
  return string.format('%d', n)
end
