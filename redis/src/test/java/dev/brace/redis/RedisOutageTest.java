package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.redis.RedisBackendOptions.WhenUnavailable;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A redis-server of the test's own, stopped and started again to stand for an outage. */
class RedisOutageTest {
  /**
   * A command timeout above the default 50 ms: on a loaded machine a healthy server sometimes takes
   * longer than that, and the outage it starts is not the one the test made.
   */
  private static final RedisBackendOptions OPTIONS =
      RedisBackendOptions.defaults().withCommandTimeout(Duration.ofMillis(500)).withRecheckInterval(Duration.ofMillis(100));

  private RedisServer server;

  @BeforeEach
  void startRedis() {
    server = RedisServer.start();
  }

  @AfterEach
  void stopRedis() {
    if (server != null) {
      server.close();
    }
  }

  private static Stack<String> stack(Fleet machine) {
    return Stack.<String>builder("Api.call")
        .circuitBreaker("outage-api", b -> b.failureThreshold(2).backend("redis"))
        .rateLimit("outage-quota", r -> r.permits(1000).per("1h").backend("redis"))
        .build(machine.registry);
  }

  /** @return how long the call took, in milliseconds */
  private static long timed(Callable<?> call) throws Exception {
    long started = System.nanoTime();
    try {
      call.call();
    } catch (IOException | RateLimitedException | CircuitOpenException expected) {
      // Timed either way.
    }
    return (System.nanoTime() - started) / 1_000_000;
  }

  @Test
  void duringAnOutageCallsDecideLocallyQuicklyAndRecoverWhenRedisReturns() throws Exception {
    try (Fleet machine = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> stack = stack(machine);
      assertEquals("before", stack.call(() -> "before"));

      server.stop();
      long slowest = 0;
      for (int i = 0; i < 50; i++) {
        slowest = Math.max(slowest, timed(() -> stack.call(() -> "during")));
      }
      assertTrue(slowest < 200, "with the server gone, each call fails over at once: slowest " + slowest + " ms");
      assertEquals(1, machine.count("backend.unavailable"), "reported once per outage");
      assertEquals("local", machine.events.stream()
          .filter(e -> e.kind().equals("backend.unavailable")).findFirst().orElseThrow().attributes().get("fallback"));
      assertEquals(CircuitState.CLOSED, machine.registry.circuitBreaker("outage-api").state(),
          "Redis being down is no failure of the dependency");

      // The local breaker still protects the dependency meanwhile.
      assertThrows(IOException.class, () -> stack.call(RedisOutageTest::fail));
      assertThrows(IOException.class, () -> stack.call(RedisOutageTest::fail));
      assertThrows(CircuitOpenException.class, () -> stack.call(() -> "refused locally"));

      server.restart();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (machine.count("backend.recovered") == 0 && System.nanoTime() < deadline) {
        timed(() -> stack.call(() -> "after"));
        Thread.sleep(20);
      }
      assertEquals(1, machine.count("backend.recovered"));
      assertEquals("after", stack.call(() -> "after"), "the shared circuit (empty after the restart) is closed");
      assertEquals(1, machine.count("backend.unavailable"));
    }
  }

  @Test
  void configuredToRefuseItRefusesNamingTheBackend() throws Exception {
    try (Fleet machine = new Fleet(server, OPTIONS.withWhenUnavailable(WhenUnavailable.REFUSE), Map.of())) {
      Stack<String> breakerOnly = Stack.<String>builder("Api.call")
          .circuitBreaker("refusing-api", b -> b.backend("redis"))
          .build(machine.registry);
      Stack<String> limiterOnly = Stack.<String>builder("Api.other")
          .rateLimit("refusing-quota", r -> r.permits(10).backend("redis"))
          .build(machine.registry);
      breakerOnly.call(() -> "up");
      limiterOnly.call(() -> "up");

      server.stop();
      CircuitOpenException open = assertThrows(CircuitOpenException.class, () -> breakerOnly.call(() -> "x"));
      assertTrue(open.getMessage().contains("backend 'redis' is unavailable"), open.getMessage());
      RateLimitedException limited = assertThrows(RateLimitedException.class, () -> limiterOnly.call(() -> "x"));
      assertTrue(limited.getMessage().contains("backend 'redis' is unavailable"), limited.getMessage());
      assertEquals(1, machine.count("backend.unavailable"));
      assertEquals("refuse", machine.events.stream()
          .filter(e -> e.kind().equals("backend.unavailable")).findFirst().orElseThrow().attributes().get("fallback"));
    }
  }

  @Test
  void aBackendThatCannotReachRedisAtStartDecidesLocallyAndConnectsLater() throws Exception {
    server.stop();
    try (Fleet machine = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> stack = stack(machine);
      assertEquals("local", stack.call(() -> "local"));
      assertEquals(1, machine.count("backend.unavailable"));

      server.restart();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (machine.count("backend.recovered") == 0 && System.nanoTime() < deadline) {
        stack.call(() -> "x");
        Thread.sleep(20);
      }
      assertEquals(1, machine.count("backend.recovered"));
    }
  }

  private static String fail() throws IOException {
    throw new IOException("dependency down");
  }
}
