/**
 * {@code brace-redis}: a {@link dev.brace.runtime.Backend} that keeps chosen rate limiters and
 * circuit breakers in Redis, so a fleet shares one quota and one circuit per name. Each
 * admission is one Lua script on the server's clock; when Redis cannot be reached within the
 * command timeout, instances fall back to local state or refuse, as configured, and the registry
 * hears {@code backend.unavailable} and {@code backend.recovered} once per outage.
 *
 * <p>A single server or a Redis Cluster ({@link dev.brace.redis.RedisBackend#create(
 * io.lettuce.core.cluster.RedisClusterClient, dev.brace.redis.RedisBackendOptions)}): every script
 * touches exactly one key, so on a cluster it runs on that key's node, and each node has its own
 * outage. A script is sent at most once (commands in flight when a connection drops fail rather
 * than being sent again), and an interrupt while a script is in flight is held until its answer,
 * never taken for an outage. {@code docs/reliability.md} ("Redis under faults") lists what is
 * tested against real servers that are killed, frozen and cut off.
 *
 * <p>Every script takes its caller's settings as arguments, so instances take new settings live
 * and keep the state in Redis, and machines holding different settings during a rolling change
 * each apply their own to one state. {@link dev.brace.redis.RedisBackend#status()} tells the
 * outages for health checks.
 */
package dev.brace.redis;
