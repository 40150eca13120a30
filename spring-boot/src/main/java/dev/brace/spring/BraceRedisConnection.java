package dev.brace.spring;

import dev.brace.redis.RedisBackend;
import dev.brace.redis.RedisBackendOptions;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis backend's own Lettuce client, made with the settings of the application's {@link
 * LettuceConnectionFactory}, and the backend on it; closed with the application context.
 *
 * <p>The client is Spring Data Redis's own making: {@link Maker} is a factory of the application's
 * configuration (standalone, Sentinel, Cluster or a Unix socket, with its credentials) and client
 * configuration (TLS and peer verification, StartTLS, the client name, the database, the client
 * options with their SSL options, socket options and cluster topology refresh, and the client
 * resources), and asks it for a client as the factory itself does when it starts. So the backend
 * connects exactly where and as the application does, over its event loops when the application
 * shares them (Spring Boot's {@code ClientResources} bean), without reading a property of its own.
 * Its own client, because the backend changes the client's options (commands fail at once while
 * disconnected, and are bounded by its command timeout), which the application's connections must
 * not get.
 */
final class BraceRedisConnection implements AutoCloseable {
  private final AbstractRedisClient client;
  private final RedisBackend backend;
  private final Duration shutdownQuietPeriod;
  private final Duration shutdownTimeout;

  private BraceRedisConnection(AbstractRedisClient client, RedisBackend backend, LettuceClientConfiguration configuration) {
    this.client = client;
    this.backend = backend;
    this.shutdownQuietPeriod = configuration.getShutdownQuietPeriod();
    this.shutdownTimeout = configuration.getShutdownTimeout();
  }

  /**
   * @param application the application's connection factory
   * @param details Spring Boot's connection details, when there are any: read only to refuse a
   *     static master/replica setup, whose configuration the factory does not show
   * @param options the backend's options
   * @return the backend, connected (or starting in an outage and connecting in the background)
   * @throws IllegalStateException ({@code [brace:redis-topology]}) for a static master/replica setup
   */
  static BraceRedisConnection open(LettuceConnectionFactory application, DataRedisConnectionDetails details, RedisBackendOptions options) {
    Objects.requireNonNull(application, "application");
    if (details != null && details.getMasterReplica() != null) {
      throw new IllegalStateException("[brace:redis-topology] spring.data.redis.masterreplica is a static master/replica"
          + " setup, which brace-redis cannot keep its state in (every script writes, on one primary); give the"
          + " registry a RedisBackend bean of your own on the primary, or set brace.redis.enabled=false");
    }
    LettuceClientConfiguration clientConfiguration = application.getClientConfiguration();
    AbstractRedisClient client = new Maker(configurationOf(application), clientConfiguration).client();
    RedisBackend backend;
    try {
      backend = client instanceof RedisClusterClient
          ? RedisBackend.create((RedisClusterClient) client, options)
          : RedisBackend.create((RedisClient) client, options);
    } catch (RuntimeException failed) {
      client.shutdown(clientConfiguration.getShutdownQuietPeriod(), clientConfiguration.getShutdownTimeout());
      throw failed;
    }
    return new BraceRedisConnection(client, backend, clientConfiguration);
  }

  /** The one configuration the application's factory was made with, by what the factory shows of it. */
  private static RedisConfiguration configurationOf(LettuceConnectionFactory application) {
    if (application.getSentinelConfiguration() != null) {
      return application.getSentinelConfiguration();
    }
    if (application.getClusterConfiguration() != null) {
      return application.getClusterConfiguration();
    }
    if (application.getSocketConfiguration() != null) {
      return application.getSocketConfiguration();
    }
    return application.getStandaloneConfiguration();
  }

  /** @return the backend */
  RedisBackend backend() {
    return backend;
  }

  /** Closes the backend's connection, then shuts the client down (not the application's client resources). */
  @Override
  public void close() {
    try {
      backend.close();
    } finally {
      client.shutdown(shutdownQuietPeriod, shutdownTimeout);
    }
  }

  /**
   * A connection factory that is never started: it only makes clients, with Spring Data Redis's own
   * code ({@link LettuceConnectionFactory#createClient()}), from the application factory's settings.
   */
  private static final class Maker extends LettuceConnectionFactory {
    Maker(RedisConfiguration configuration, LettuceClientConfiguration clientConfiguration) {
      super(configuration, clientConfiguration);
    }

    AbstractRedisClient client() {
      return createClient();
    }
  }
}
