package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A breaker, limiter or bulkhead forced into a state stays there until released, whatever time does. */
class ForcedStatesTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).environment(Map.of()).systemProperties(Map.of()).build();
  private final Stack<String> stack = Stack.<String>builder("forced.call")
      .circuitBreaker("forced-api", b -> b.failureThreshold(2).resetTimeout("1s"))
      .rateLimit("forced-limit", l -> l.permits(100).per("1s"))
      .bulkhead("forced-pool", b -> b.maxConcurrent(3))
      .build(registry);

  @Test
  void aBreakerForcedOpenAdmitsNoProbeUntilReset() throws Exception {
    List<Event> events = new CopyOnWriteArrayList<>();
    registry.subscribe(events::add);
    CircuitBreakerHandle breaker = registry.circuitBreaker("forced-api");

    breaker.forceOpen();
    clock.advance(Duration.ofDays(365));

    CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> stack.call(() -> "never"));
    assertTrue(refused.retryAfter().isEmpty());
    assertEquals(CircuitState.OPEN, breaker.state());
    assertTrue(breaker.retryAfter().isEmpty());
    Event opened = events.stream().filter(event -> event.is(EventKind.CIRCUIT_OPENED)).findFirst().orElseThrow();
    assertEquals(Map.of("forced", true, "from", "CLOSED", "to", "OPEN"), opened.attributes());

    breaker.reset();
    assertEquals("answer", stack.call(() -> "answer"));
  }

  @Test
  void aBreakerForcedClosedCountsFailuresButNeverOpensUntilReset() throws Exception {
    List<Event> events = new CopyOnWriteArrayList<>();
    registry.subscribe(events::add);
    CircuitBreakerHandle breaker = registry.circuitBreaker("forced-api");
    breaker.forceClosed();
    for (int i = 0; i < 5; i++) {
      assertThrows(IOException.class, () -> stack.call(() -> {
        throw new IOException("down");
      }));
    }
    assertEquals(CircuitState.CLOSED, breaker.state());
    assertTrue(events.stream().noneMatch(event -> event.is(EventKind.CIRCUIT_OPENED)),
        "a circuit held closed does not report an opening it did not make: " + events);

    breaker.reset();
    for (int i = 0; i < 2; i++) {
      assertThrows(IOException.class, () -> stack.call(() -> {
        throw new IOException("down");
      }));
    }
    assertEquals(CircuitState.OPEN, breaker.state());
  }

  @Test
  void aLimiterForcedEmptyRefusesWhateverTimeDoesUntilReleased() throws Exception {
    RateLimiterHandle limiter = registry.rateLimiter("forced-limit");
    limiter.forceEmpty();
    clock.advance(Duration.ofDays(365));

    assertEquals(0, limiter.availablePermits());
    assertThrows(RateLimitedException.class, () -> stack.call(() -> "never"));

    limiter.releaseForced();
    assertEquals(100, limiter.availablePermits());
    assertEquals("answer", stack.call(() -> "answer"));
  }

  @Test
  void aBulkheadForcedFullRefusesUntilItsPermitsAreReleased() throws Exception {
    BulkheadHandle bulkhead = registry.bulkhead("forced-pool");

    assertEquals(3, bulkhead.forceFull());
    assertEquals(0, bulkhead.available());
    assertThrows(BulkheadFullException.class, () -> stack.call(() -> "never"));

    bulkhead.releaseForced();
    bulkhead.releaseForced();
    assertEquals(3, bulkhead.available(), "a second release gives back nothing more");
    assertEquals("answer", stack.call(() -> "answer"));
  }
}
