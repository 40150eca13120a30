-- Closes the circuit and forgets every outcome. KEYS[1]; ARGV[1] ttl (ms). Returns the old state.
local s = redis.call('HMGET', KEYS[1], 'state', 'gen')
close(KEYS[1], tonumber(s[2]) or 0, ARGV[1])
return {s[1] or 'C'}
