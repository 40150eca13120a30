-- Frees the probe slot of a call that ends without an outcome. KEYS[1]; ARGV[1] gen, ARGV[2] token.
local s = redis.call('HMGET', KEYS[1], 'state', 'gen', 'lease_id')
if s[1] == 'H' and tonumber(s[2]) == tonumber(ARGV[1]) and s[3] == ARGV[2] then
  redis.call('HSET', KEYS[1], 'lease', 0, 'lease_id', '')
  return {1}
end
return {0}
