package dev.brace.redis;

import dev.brace.runtime.Backend;
import dev.brace.runtime.BackendStatus;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.util.Objects;
import java.util.Optional;

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
 * instance's name is {@code name[key]}; an adaptive limiter's key is {@code
 * <prefix>ratelimit-adaptive:<name>}) and expire when idle.
 *
 * <p>On a Redis Cluster ({@link #create(RedisClusterClient, RedisBackendOptions)}) each script
 * runs on the node that serves its one key; a node's outage is reported with its address in
 * {@code node} and only the instances whose keys live there fall back.
 *
 * <p>Its limiters and breakers take new settings while they run ({@code registry.reconfigure}),
 * keeping the state in Redis: each script applies its caller's settings, so machines that hold
 * different settings for a while (a rolling change) share one consistent state. {@link #status()}
 * and each instance's {@code backendAvailable()} tell whether Redis can be reached.
 */
public final class RedisBackend implements Backend, AutoCloseable {
  private final RedisStore store;

  private RedisBackend(RedisStore store) {
    this.store = store;
  }

  /**
   * A backend on its own connection from {@code client}. The client's options are changed so that
   * commands fail at once while disconnected instead of queueing (a command in flight when the
   * connection drops fails too, so no script is ever sent twice), and time out after the command
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
    client.setOptions(failFast(client.getOptions().mutate(), options).build());
    return connected(new RedisStore(() -> RedisLink.server(client.connect(), true), null, options));
  }

  /**
   * A backend on a Redis Cluster, with its own connection from {@code client}. Every script
   * touches one key, so it runs on the node serving that key's slot; each node has its own outage,
   * and instances whose keys live on the other nodes go on sharing their state exactly. The
   * client's options are changed as for a single server; its topology refresh is left as the
   * application set it. A connection to every primary is opened now (waiting up to the client's
   * connect timeout), since Lettuce rejects the commands for a node whose first connection is still
   * pending.
   *
   * @param client the Lettuce cluster client (seed nodes); not shut down by {@link #close()}
   * @param options timeout, fallback and keys
   * @return the backend
   * @throws NullPointerException when an argument is null
   */
  public static RedisBackend create(RedisClusterClient client, RedisBackendOptions options) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(options, "options");
    client.setOptions(failFast(ClusterClientOptions.builder(client.getOptions()), options).build());
    return connected(new RedisStore(() -> RedisLink.cluster(client.connect(), true), null, options));
  }

  /**
   * A backend on a connection the application manages (and closes). Each command is still bounded
   * by the command timeout. Give the client {@code DisconnectedBehavior.REJECT_COMMANDS}, as {@link
   * #create(RedisClient, RedisBackendOptions)} does: commands then fail at once while disconnected,
   * and a command in flight when the connection drops fails instead of being sent again after
   * reconnecting (which could take a second token or count one failure twice).
   *
   * @param connection an open connection with a String codec
   * @param options timeout, fallback and keys
   * @return the backend
   * @throws NullPointerException when an argument is null
   */
  public static RedisBackend create(StatefulRedisConnection<String, String> connection, RedisBackendOptions options) {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(options, "options");
    return new RedisBackend(new RedisStore(null, RedisLink.server(connection, false), options));
  }

  /**
   * A backend on a cluster connection the application manages (and closes); as {@link
   * #create(StatefulRedisConnection, RedisBackendOptions)}, with each script on its key's node.
   *
   * @param connection an open cluster connection with a String codec
   * @param options timeout, fallback and keys
   * @return the backend
   * @throws NullPointerException when an argument is null
   */
  public static RedisBackend create(
      StatefulRedisClusterConnection<String, String> connection, RedisBackendOptions options) {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(options, "options");
    return new RedisBackend(new RedisStore(null, RedisLink.cluster(connection, false), options));
  }

  /** Sets what every client the backend connects with needs: fail fast, bounded commands. */
  private static <B extends ClientOptions.Builder> B failFast(B builder, RedisBackendOptions options) {
    builder.autoReconnect(true);
    builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
    builder.timeoutOptions(TimeoutOptions.enabled(options.commandTimeout()));
    return builder;
  }

  private static RedisBackend connected(RedisStore store) {
    store.connectNow();
    return new RedisBackend(store);
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

  /**
   * The outages now (the whole server, or cluster nodes by {@code host:port}) and the fallback in
   * force. A server or node that no call has reached within the recheck interval is asked first,
   * with a script that touches nothing and waits at most the command timeout, like any call: a
   * failure starts an outage (with {@code backend.unavailable}), a success ends one. While calls
   * flow it sends nothing, and during an outage it asks at most once per recheck interval, so a
   * health check or a metrics scrape may ask as often as it likes.
   *
   * @return the status; never empty
   */
  @Override
  public Optional<BackendStatus> status() {
    return Optional.of(store.status());
  }

  /** Closes the connection this backend opened (not a connection it was given, nor the client). */
  @Override
  public void close() {
    store.close();
  }
}
