package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import java.io.File;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The backend on plain Lettuce as a hardened Redis asks for it: TLS, and an ACL user allowed only
 * Brace's scripts, the commands they call and Brace's keys (docs/guide/redis.md, "TLS and an ACL user").
 */
class RedisTlsTest {

  /** What the guide tells an operator to grant: the scripts, what they call, the {@code brace:} keys. */
  static final String ACL_RULES = "on >s3cret ~brace:* +evalsha +eval +time +get +set +hmget +hget +hset +hincrby +pexpire +del";

  @Test
  void aBackendOverTlsAsAnAclUserWithOnlyBracesCommandsAndKeysSharesItsQuota() throws Exception {
    RedisTls tls = RedisTls.create();
    try (RedisServer server = RedisServer.startWithTls(tls, List.of())) {
      server.command(("ACL SETUSER brace " + ACL_RULES).split(" "));

      RedisURI uri = RedisURI.Builder.redis("127.0.0.1", server.tlsPort())
          .withSsl(true)
          .withAuthentication("brace", "s3cret".toCharArray())
          .build();
      RedisClient client = RedisClient.create(uri);
      client.setOptions(ClientOptions.builder()
          .sslOptions(SslOptions.builder().trustManager(new File(tls.certificate().toString())).build())
          .build());
      try (RedisBackend redis = RedisBackend.create(client, RedisBackendOptions.defaults().withCommandTimeout(Duration.ofSeconds(5)))) {
        Registry registry = Registry.builder().backend("redis", redis).environment(Map.of()).build();
        List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        registry.subscribe(event -> events.add(event.kind()));
        Stack<String> stack = Stack.<String>builder("Secure.call")
            .rateLimit("secure-quota", r -> r.permits(2).per("1h").backend("redis"))
            .circuitBreaker("secure-api", b -> b.backend("redis"))
            .build(registry);

        assertEquals("ok", stack.call(() -> "ok"));
        assertThrows(java.io.IOException.class, () -> stack.call(() -> {
          throw new java.io.IOException("dependency down");
        }));
        assertEquals("1", server.command("HGET", "brace:circuit:secure-api", "failures"), "the failure is counted in Redis");
        assertThrows(dev.brace.runtime.RateLimitedException.class, () -> stack.call(() -> "third"));
        assertTrue(server.command("GET", "brace:ratelimit:secure-quota") != null, "the bucket is in Redis");
        assertTrue(redis.status().orElseThrow().available(), String.valueOf(redis.status()));
        assertTrue(registry.rateLimiter("secure-quota").backendAvailable());
        assertTrue(events.stream().noneMatch(kind -> kind.startsWith("backend.")), "no command was refused: " + events);
      } finally {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
      }
    }
  }
}
