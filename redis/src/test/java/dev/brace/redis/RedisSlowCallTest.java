package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
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
 * window. Each machine's registry times its attempts on a manual clock, which a "slow" call moves
 * by a second against a {@code slowCall} of half a second and a quick one does not move at all, so
 * a loaded machine cannot turn a quick call slow; the open circuit's reset still waits on the
 * server's clock.
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

  private final ManualTimeSource clock = new ManualTimeSource();

  private String slowly() {
    clock.advance(Duration.ofSeconds(1));
    return "slow";
  }

  @Test
  void slowCallsOnTwoMachinesOpenTheSharedCircuitInClassicModeAndASlowProbeReopensIt() throws Exception {
    try (Fleet one = new Fleet(server, OPTIONS, Map.of(), clock);
        Fleet two = new Fleet(server, OPTIONS, Map.of(), clock)) {
      Stack<String> first = Stack.<String>builder("Api.call").circuitBreaker("slow-api", SETTINGS).build(one.registry);
      Stack<String> second = Stack.<String>builder("Api.call").circuitBreaker("slow-api", SETTINGS).build(two.registry);

      assertEquals("slow", first.call(this::slowly));
      assertEquals(CircuitState.CLOSED, two.registry.circuitBreaker("slow-api").state(), "one outcome, below minimumCalls");
      assertEquals("quick", second.call(() -> "quick"));

      assertEquals(CircuitState.OPEN, one.registry.circuitBreaker("slow-api").state(), "1 slow of the fleet's last 2");
      Event opened = two.events.stream().filter(e -> e.kind().equals("circuit.opened")).findFirst().orElseThrow();
      assertEquals(0.5, opened.attributes().get("slow_call_rate"));
      assertEquals(0.5, opened.attributes().get("slow_call_rate_threshold"));
      assertEquals(2L, opened.attributes().get("observed_calls"));
      assertFalse(opened.attributes().containsKey("failure_rate"), "classic mode: failures are not judged by rate");

      Thread.sleep(250);
      assertEquals("slow", first.call(this::slowly));
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
