package dev.brace.examples.spring;

import dev.brace.redis.RedisServer;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The real redis-server the example's tests run the application against, started as brace-redis's
 * own tests start theirs: one per test JVM, on a free loopback port, stopped when the JVM ends.
 * Without redis-server on the PATH the tests are skipped, loudly (they fail under {@code CI=true}).
 */
final class ExampleRedis {
  private static RedisServer server;

  private ExampleRedis() {}

  /** @return the server, started on first use */
  static synchronized RedisServer server() {
    if (server == null) {
      RedisServer started = RedisServer.start();
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "example-redis-stop"));
      server = started;
    }
    return server;
  }

  /** Points the application's Spring Data Redis at the server, as {@code spring.data.redis.*} would. */
  static void connect(DynamicPropertyRegistry properties) {
    properties.add("spring.data.redis.host", () -> "127.0.0.1");
    properties.add("spring.data.redis.port", () -> server().port());
  }
}
