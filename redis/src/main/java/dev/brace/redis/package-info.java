/**
 * {@code brace-redis}: a {@link dev.brace.runtime.Backend} that keeps chosen rate limiters and
 * circuit breakers in Redis, so a fleet shares one quota and one circuit per name. Each
 * admission is one Lua script on the server's clock; when Redis cannot be reached within the
 * command timeout, instances fall back to local state or refuse, as configured.
 */
package dev.brace.redis;
