package dev.brace.redis;

import dev.brace.runtime.Backend;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Objects;

/**
 * Keeps chosen rate limiters and circuit breakers in Redis, so every machine of a fleet shares one
 * quota and one circuit per name:
 *
 * <pre>{@code
 * RedisBackend redis = RedisBackend.create(RedisClient.create("redis://cache:6379"), RedisBackendOptions.defaults());
 * Registry registry = Registry.builder().backend("redis", redis).build();
 * // then, per instance: BRACE_RATELIMIT_RECS_API_BACKEND=redis
 * }</pre>
 *
 * Every admission is one Lua script on the server's clock (no compare-and-swap loop, no client
 * clock). Each command is bounded by {@link RedisBackendOptions#commandTimeout()}; when Redis cannot
 * be reached, instances decide locally or refuse ({@link RedisBackendOptions#whenUnavailable()}),
 * the registry hears {@code backend.unavailable} once per outage and {@code backend.recovered} when
 * it ends. Keys are {@code <prefix>ratelimit:<name>} and {@code <prefix>circuit:<name>} (a keyed
 * instance's name is {@code name[key]}) and expire when idle.
 */
public final class RedisBackend implements Backend, AutoCloseable {
  private final RedisStore store;

  private RedisBackend(RedisStore store) {
    this.store = store;
  }

  /**
   * A backend on its own connection from {@code client}. The client's options are changed so that
   * commands fail at once while disconnected instead of queueing, and time out after the command
   * timeout. If Redis cannot be reached now, the backend starts in an outage and connects in the
   * background.
   *
   * @param client the Lettuce client; not shut down by {@link #close()}
   * @param options timeout, fallback and keys
   * @return the backend
   * @throws NullPointerException when an argument is null
   */
  public static RedisBackend create(RedisClient client, RedisBackendOptions options) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(options, "options");
    client.setOptions(client.getOptions().mutate()
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .timeoutOptions(TimeoutOptions.enabled(options.commandTimeout()))
        .build());
    RedisStore store = new RedisStore(client, null, options);
    store.connectNow();
    return new RedisBackend(store);
  }

  /**
   * A backend on a connection the application manages (and closes). Each command is still bounded
   * by the command timeout; for commands to fail at once while disconnected, give the client
   * {@code DisconnectedBehavior.REJECT_COMMANDS}.
   *
   * @param connection an open connection with a String codec
   * @param options timeout, fallback and keys
   * @return the backend
   * @throws NullPointerException when an argument is null
   */
  public static RedisBackend create(StatefulRedisConnection<String, String> connection, RedisBackendOptions options) {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(options, "options");
    return new RedisBackend(new RedisStore(null, connection, options));
  }

  @Override
  public RateLimiterInstance rateLimiter(RateLimitConfig config, BackendContext context) {
    store.observedBy(context.events(), context.backendName());
    return config.adaptive()
        ? new RedisAdaptiveRateLimiter(config, context, store)
        : new RedisRateLimiter(config, context, store);
  }

  @Override
  public CircuitBreakerInstance circuitBreaker(CircuitBreakerConfig config, BackendContext context) {
    store.observedBy(context.events(), context.backendName());
    return new RedisCircuitBreaker(config, context, store);
  }

  /** Closes the connection this backend opened (not a connection it was given, nor the client). */
  @Override
  public void close() {
    store.close();
  }
}
