package dev.brace.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.Stack;
import dev.brace.runtime.config.CircuitBreakerConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One circuit shared by several machines, against a real redis-server. */
class RedisCircuitBreakerTest {
  private static final RedisBackendOptions OPTIONS =
      RedisBackendOptions.defaults().withCommandTimeout(Duration.ofSeconds(10)).withProbeLease(Duration.ofMillis(300));

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

  private static Stack<String> guarded(Fleet machine, String name, Consumer<CircuitBreakerConfig.Builder> settings) {
    return Stack.<String>builder("Api.call")
        .circuitBreaker(name, b -> settings.accept(b.backend("redis")))
        .build(machine.registry);
  }

  private static String fail() throws IOException {
    throw new IOException("dependency down");
  }

  @Test
  void oneMachineOpensTheCircuitAndTheOtherIsRefused() throws Exception {
    try (Fleet one = new Fleet(server, OPTIONS, Map.of());
        Fleet two = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> first = guarded(one, "shared-api", b -> b.failureThreshold(2).resetTimeout("10s"));
      Stack<String> second = guarded(two, "shared-api", b -> b.failureThreshold(2).resetTimeout("10s"));

      assertThrows(IOException.class, () -> first.call(RedisCircuitBreakerTest::fail));
      assertThrows(IOException.class, () -> second.call(RedisCircuitBreakerTest::fail));

      CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> first.call(() -> "x"));
      assertTrue(refused.retryAfter().orElseThrow().compareTo(Duration.ofSeconds(9)) > 0);
      assertEquals(CircuitState.OPEN, one.registry.circuitBreaker("shared-api").state());
      assertEquals(CircuitState.OPEN, two.registry.circuitBreaker("shared-api").state());
      assertEquals(0, one.count("circuit.opened"), "the transition was the other machine's");
      assertEquals(1, two.count("circuit.opened"));
      Event opened = two.events.stream().filter(e -> e.kind().equals("circuit.opened")).findFirst().orElseThrow();
      assertEquals(2, opened.attributes().get("failures"));
      assertEquals("java.io.IOException", opened.attributes().get("exception"));

      two.registry.circuitBreaker("shared-api").reset();
      assertEquals("y", first.call(() -> "y"));
    }
  }

  @Test
  void afterTheCooldownExactlyOneMachineProbesAndItsSuccessClosesTheCircuitForAll() throws Exception {
    try (Fleet one = new Fleet(server, OPTIONS, Map.of());
        Fleet two = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> first = guarded(one, "probed-api", b -> b.failureThreshold(1).resetTimeout("200ms"));
      Stack<String> second = guarded(two, "probed-api", b -> b.failureThreshold(1).resetTimeout("200ms"));
      assertThrows(IOException.class, () -> first.call(RedisCircuitBreakerTest::fail));
      Thread.sleep(250);

      String probe = first.call(() -> {
        // While this machine's probe is in flight, the other is refused without a retry-after.
        CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> second.call(() -> "no"));
        assertTrue(refused.retryAfter().isEmpty());
        assertEquals(CircuitState.HALF_OPEN, two.registry.circuitBreaker("probed-api").state());
        return "probe";
      });

      assertEquals("probe", probe);
      assertEquals(CircuitState.CLOSED, two.registry.circuitBreaker("probed-api").state());
      assertEquals(1, one.count("circuit.half_open"));
      assertEquals(1, one.count("circuit.closed"));
      assertEquals(0, two.count("circuit.half_open") + two.count("circuit.closed"));
    }
  }

  @Test
  void aProberThatNeverReturnsFreesTheProbeWhenItsLeaseExpires() throws Exception {
    try (Fleet one = new Fleet(server, OPTIONS, Map.of());
        Fleet two = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> second = guarded(two, "lease-api", b -> b.failureThreshold(1).resetTimeout("100ms"));
      assertThrows(IOException.class, () -> second.call(RedisCircuitBreakerTest::fail));
      Thread.sleep(150);
      // Machine one takes the probe and "crashes": its ticket is never completed.
      dev.brace.runtime.support.LambdaCalls.callAsync(
          one.registry.resolve(dev.brace.runtime.support.LambdaCalls.builder("Api.call")
              .with(CircuitBreakerConfig.builder("lease-api").failureThreshold(1).resetTimeout("100ms").backend("redis"))
              .build()),
          java.util.concurrent.CompletableFuture::new, null);
      assertThrows(CircuitOpenException.class, () -> second.call(() -> "no"));

      Thread.sleep(OPTIONS.probeLease().toMillis() + 50);
      assertEquals("after the lease", second.call(() -> "after the lease"));
      assertEquals(CircuitState.CLOSED, two.registry.circuitBreaker("lease-api").state());
    }
  }

  /**
   * The script that admits the probe moves the shared circuit to HALF_OPEN and gives this caller the
   * probe lease; an interrupt while it is in flight must not send the caller to the local breaker,
   * which would leave that lease to no one and the circuit HALF_OPEN for every machine.
   */
  @Test
  void anInterruptWhileTheProbeIsBeingAdmittedLeavesNoProbeWithoutAnOwner() throws Exception {
    try (Fleet one = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> stack = guarded(one, "interrupted-probe-api", b -> b.failureThreshold(1).resetTimeout("100ms"));
      assertThrows(IOException.class, () -> stack.call(RedisCircuitBreakerTest::fail));
      Thread.sleep(150);

      server.holdScripts();
      CompletableFuture<Object> outcome = new CompletableFuture<>();
      try {
        Thread caller = new Thread(() -> {
          try {
            outcome.complete(stack.call(() -> "probe"));
          } catch (Throwable thrown) {
            outcome.complete(thrown);
          }
        });
        caller.start();
        Callers.awaitBlockedIn(caller, RedisStore.class, "await");
        caller.interrupt();
        Thread.sleep(50);
        assertFalse(outcome.isDone(), "the admitting script is still held in the server");
      } finally {
        server.runScripts();
      }
      assertEquals("probe", outcome.get(30, TimeUnit.SECONDS));
      assertEquals(CircuitState.CLOSED, one.registry.circuitBreaker("interrupted-probe-api").state(),
          "the probe's success closed the shared circuit");
      assertEquals(1, one.count("circuit.half_open"));
      assertEquals(1, one.count("circuit.closed"));
      assertEquals(0, one.count("backend.unavailable"), "an interrupt is no outage");
    }
  }

  @Test
  void rateModeOpensOnTheFailureRateOfTheWholeFleet() throws Exception {
    try (Fleet one = new Fleet(server, OPTIONS, Map.of());
        Fleet two = new Fleet(server, OPTIONS, Map.of())) {
      Consumer<CircuitBreakerConfig.Builder> settings =
          b -> b.failureRate(0.5).minimumCalls(4).window("10s").resetTimeout("10s");
      Stack<String> first = guarded(one, "rate-api", settings);
      Stack<String> second = guarded(two, "rate-api", settings);
      first.call(() -> "ok");
      second.call(() -> "ok");
      assertThrows(IOException.class, () -> first.call(RedisCircuitBreakerTest::fail));
      assertEquals(CircuitState.CLOSED, one.registry.circuitBreaker("rate-api").state(), "3 calls: below minimumCalls");
      assertThrows(IOException.class, () -> second.call(RedisCircuitBreakerTest::fail));

      assertEquals(CircuitState.OPEN, one.registry.circuitBreaker("rate-api").state());
      Event opened = two.events.stream().filter(e -> e.kind().equals("circuit.opened")).findFirst().orElseThrow();
      assertEquals(0.5, opened.attributes().get("failure_rate"));
      assertEquals(4L, opened.attributes().get("observed_calls"));
      assertEquals("10s", opened.attributes().get("window"));
    }
  }

  @Test
  void aWindowOfTheLastCallsCountsAcrossMachines() throws Exception {
    try (Fleet one = new Fleet(server, OPTIONS, Map.of())) {
      Stack<String> stack = guarded(one, "last-calls-api",
          b -> b.failureRate(1.0).windowCalls(4).windowBuckets(4).minimumCalls(4).resetTimeout("10s"));
      stack.call(() -> "ok");
      for (int i = 0; i < 3; i++) {
        assertThrows(IOException.class, () -> stack.call(RedisCircuitBreakerTest::fail));
      }
      assertEquals(CircuitState.CLOSED, one.registry.circuitBreaker("last-calls-api").state(), "3 of the last 4 failed");
      assertThrows(IOException.class, () -> stack.call(RedisCircuitBreakerTest::fail));
      assertEquals(CircuitState.OPEN, one.registry.circuitBreaker("last-calls-api").state(), "4 of the last 4 failed");
    }
  }
}
