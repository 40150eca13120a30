package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Stack;
import dev.brace.runtime.config.CircuitBreakerConfig;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Slow calls in a circuit shared through a real redis-server: each machine times its own attempts
 * and judges them with the breaker's classifier; the script counts the slow ones in the fleet's
 * window. "Slow" is a second of real sleep against a {@code slowCall} of half a second, far from
 * anything a loaded machine adds to a call that returns at once.
 */
class RedisSlowCallTest {
  private static final RedisBackendOptions OPTIONS =
      RedisBackendOptions.defaults().withCommandTimeout(Duration.ofSeconds(2));
  private static final Consumer<CircuitBreakerConfig.Builder> SETTINGS = b -> b.backend("redis")
      .slowCall("500ms").slowCallRate(0.5).windowCalls(2).windowBuckets(2).minimumCalls(2).resetTimeout("200ms");

  private static RedisServer server;

  @BeforeAll
  static void startRedis() {
    server = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() {
    if (server != null) {
      server.close();
    }
  }

  private static String slowly() throws InterruptedException {
    Thread.sleep(1_000);
    return "slow";
  }

  @Test
  void slowCallsOnTwoMachinesOpenTheSharedCircuitInClassicModeAndASlowProbeReopensIt() throws Exception {
    try (Fleet one = new Fleet(server, OPTIONS, Map.of());
        Fleet two = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> first = Stack.<String>builder("Api.call").circuitBreaker("slow-api", SETTINGS).build(one.registry);
      Stack<String> second = Stack.<String>builder("Api.call").circuitBreaker("slow-api", SETTINGS).build(two.registry);

      assertEquals("slow", first.call(RedisSlowCallTest::slowly));
      assertEquals(CircuitState.CLOSED, two.registry.circuitBreaker("slow-api").state(), "one outcome, below minimumCalls");
      assertEquals("quick", second.call(() -> "quick"));

      assertEquals(CircuitState.OPEN, one.registry.circuitBreaker("slow-api").state(), "1 slow of the fleet's last 2");
      Event opened = two.events.stream().filter(e -> e.kind().equals("circuit.opened")).findFirst().orElseThrow();
      assertEquals(0.5, opened.attributes().get("slow_call_rate"));
      assertEquals(0.5, opened.attributes().get("slow_call_rate_threshold"));
      assertEquals(2L, opened.attributes().get("observed_calls"));
      assertFalse(opened.attributes().containsKey("failure_rate"), "classic mode: failures are not judged by rate");

      Thread.sleep(250);
      assertEquals("slow", first.call(RedisSlowCallTest::slowly));
      assertEquals(CircuitState.OPEN, two.registry.circuitBreaker("slow-api").state(), "a slow probe is a failed probe");
      Event reopened = one.events.stream().filter(e -> e.kind().equals("circuit.opened")).findFirst().orElseThrow();
      assertEquals("HALF_OPEN", reopened.attributes().get("from"));
      assertEquals(500L, reopened.attributes().get("slow_call_ms"));

      Thread.sleep(250);
      assertEquals("quick", second.call(() -> "quick"));
      assertEquals(CircuitState.CLOSED, one.registry.circuitBreaker("slow-api").state(), "a quick probe closes it");
    }
  }

  @Test
  void quickOutcomesInClassicModeStillCountConsecutiveFailures() throws Exception {
    try (Fleet one = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> stack = Stack.<String>builder("Api.call")
          .circuitBreaker("slow-classic-api", b -> SETTINGS.accept(b.failureThreshold(2).slowCallRate(1.0)))
          .build(one.registry);
      for (int i = 0; i < 2; i++) {
        try {
          stack.call(() -> {
            throw new java.io.IOException("down");
          });
        } catch (java.io.IOException expected) {
          // counted
        }
      }
      assertEquals(CircuitState.OPEN, one.registry.circuitBreaker("slow-classic-api").state(), "two consecutive failures");
      assertEquals(2, one.events.stream().filter(e -> e.kind().equals("circuit.opened")).findFirst().orElseThrow()
          .attributes().get("failures"));
    }
  }
}
