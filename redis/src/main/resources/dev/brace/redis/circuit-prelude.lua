-- One circuit is one hash: state (C, O or H; absent means C), gen (bumped by every transition, so
-- an outcome admitted in an earlier stretch is ignored), failures (classic mode), probe_at (when
-- OPEN admits a probe), successes and lease/lease_id (HALF_OPEN's single probe: whoever holds an
-- unexpired lease is the probe), and the rate window's buckets e<i> (epoch), c<i> (calls), f<i>
-- (failures), s<i> (slow outcomes, when latency is judged), n (outcomes so far, for a window of
-- the last N calls), and shape (the settings that shaped the counts: mode, window and buckets).
-- It expires when idle.
local function touch(h, ttl_ms)
  redis.call('PEXPIRE', h, ttl_ms)
end

local function open(h, gen, now, reset_micros, ttl_ms)
  redis.call('DEL', h)
  redis.call('HSET', h, 'state', 'O', 'gen', int(gen + 1), 'probe_at', int(now + reset_micros))
  touch(h, ttl_ms)
end

local function close(h, gen, ttl_ms)
  redis.call('DEL', h)
  redis.call('HSET', h, 'state', 'C', 'gen', int(gen + 1))
  touch(h, ttl_ms)
end

-- A CLOSED circuit whose counts another shape of window made (new settings elsewhere in the fleet,
-- or here) starts them anew, as a local breaker does; its stretch (gen) goes on, so calls already
-- admitted still count.
local function restart_window(h, gen, shape, ttl_ms)
  redis.call('DEL', h)
  redis.call('HSET', h, 'state', 'C', 'gen', int(gen), 'shape', shape)
  touch(h, ttl_ms)
end
