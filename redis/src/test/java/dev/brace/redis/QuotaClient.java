package dev.brace.redis;

import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import io.lettuce.core.RedisClient;
import java.time.Duration;

/**
 * One machine of {@link SeveralProcessesTest}, run in a JVM of its own: arguments are the Redis
 * URI, the limiter's name, its tokens and the calls to make; it prints {@code admitted=<n>}.
 */
public final class QuotaClient {
  private QuotaClient() {}

  /** @param args uri, limiter name, tokens, calls */
  public static void main(String[] args) throws Exception {
    RedisClient client = RedisClient.create(args[0]);
    try (RedisBackend backend = RedisBackend.create(
        client, RedisBackendOptions.defaults().withCommandTimeout(Duration.ofSeconds(5)))) {
      Registry registry = Registry.builder().backend("redis", backend).environment(java.util.Map.of()).build();
      int tokens = Integer.parseInt(args[2]);
      Stack<String> stack = Stack.<String>builder("Quota.call")
          .rateLimit(args[1], r -> r.permits(tokens).per("1000h").backend("redis"))
          .build(registry);
      int admitted = 0;
      for (int i = Integer.parseInt(args[3]); i > 0; i--) {
        try {
          stack.call(() -> "ok");
          admitted++;
        } catch (RateLimitedException noToken) {
          // Counted by omission.
        }
      }
      System.out.println("admitted=" + admitted);
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }
  }
}
