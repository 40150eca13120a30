-- Applies a judged outcome, if the stretch that admitted the call is still current.
-- KEYS[1] the circuit; ARGV: [1] gen, [2] token, [3] failure (1/0), [4] failure threshold,
-- [5] success threshold, [6] reset timeout (us), [7] failure rate (0: classic mode),
-- [8] minimum calls, [9] buckets, [10] bucket width (us for a time window, calls for a
-- last-N-calls window), [11] 't' or 'n', [12] ttl (ms), [13] slow call rate (0: latency not
-- judged), [14] slow (1/0), [15] the window's shape (mode, span, buckets). Every setting is the
-- caller's: during a rolling change each outcome is judged by the settings of the machine that
-- records it.
-- Returns {0} nothing moved; {1, failures} opened by the threshold; {2, failures, calls, slow}
-- opened by a rate; {3} closed; {4} a probe succeeded and the circuit stays HALF_OPEN; {5} a probe
-- failed (or was slow) and re-opened it.
local h = KEYS[1]
local now = now_micros()
local s = redis.call('HMGET', h, 'state', 'gen', 'lease_id', 'shape')
local state = s[1] or 'C'
local gen = tonumber(s[2]) or 0
if gen ~= tonumber(ARGV[1]) then
  return {0}
end
local failure = ARGV[3] == '1'
local slow = ARGV[14] == '1'
local slow_rate = tonumber(ARGV[13])
local reset = tonumber(ARGV[6])
local ttl = ARGV[12]
if state == 'H' then
  if s[3] ~= ARGV[2] then
    return {0}
  end
  if failure or slow then
    open(h, gen, now, reset, ttl)
    return {5}
  end
  if redis.call('HINCRBY', h, 'successes', 1) >= tonumber(ARGV[5]) then
    close(h, gen, ttl)
    return {3}
  end
  redis.call('HSET', h, 'lease', 0, 'lease_id', '')
  return {4}
end
if state ~= 'C' then
  return {0}
end
if s[4] ~= ARGV[15] then
  if s[4] then
    restart_window(h, gen, ARGV[15], ttl)
  else
    -- Counts no outcome has shaped yet (a circuit just made or just closed).
    redis.call('HSET', h, 'shape', ARGV[15])
  end
end
local rate = tonumber(ARGV[7])
if rate == 0 then
  if not failure then
    redis.call('HSET', h, 'failures', 0)
  else
    local failures = redis.call('HINCRBY', h, 'failures', 1)
    if failures >= tonumber(ARGV[4]) then
      open(h, gen, now, reset, ttl)
      return {1, failures}
    end
  end
  if slow_rate == 0 then
    touch(h, ttl)
    return {0}
  end
end
-- Rate mode or slow calls: a ring of buckets, each stamped with the epoch it counts; a stale
-- bucket is reset.
local buckets = tonumber(ARGV[9])
local width = tonumber(ARGV[10])
local epoch
if ARGV[11] == 't' then
  epoch = math.floor(now / width)
else
  epoch = math.floor((redis.call('HINCRBY', h, 'n', 1) - 1) / width)
end
local slot = epoch % buckets
if tonumber(redis.call('HGET', h, 'e' .. slot)) ~= epoch then
  redis.call('HSET', h, 'e' .. slot, int(epoch), 'c' .. slot, 0, 'f' .. slot, 0, 's' .. slot, 0)
end
redis.call('HINCRBY', h, 'c' .. slot, 1)
if failure then
  redis.call('HINCRBY', h, 'f' .. slot, 1)
end
if slow then
  redis.call('HINCRBY', h, 's' .. slot, 1)
end
local calls, failures, slows = 0, 0, 0
for i = 0, buckets - 1 do
  local b = redis.call('HMGET', h, 'e' .. i, 'c' .. i, 'f' .. i, 's' .. i)
  local e = tonumber(b[1])
  if e and e > epoch - buckets then
    calls = calls + tonumber(b[2])
    failures = failures + tonumber(b[3])
    slows = slows + (tonumber(b[4]) or 0)
  end
end
if calls >= tonumber(ARGV[8])
    and ((rate > 0 and failures / calls >= rate) or (slow_rate > 0 and slows / calls >= slow_rate)) then
  open(h, gen, now, reset, ttl)
  return {2, failures, calls, slows}
end
touch(h, ttl)
return {0}
