package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.Bulkhead;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A breaker that judges latency and an adaptive bulkhead both time the attempt: the breaker's timing
 * carries the bulkhead's slot, which carries the breaker's ticket, and each gets its own back.
 */
class SlowCallsThroughAnAdaptiveBulkheadTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).environment(java.util.Map.of())
      .systemProperties(java.util.Map.of()).build();

  private Stack<String> stack() {
    return Stack.<String>builder("calls")
        .circuitBreaker("api", b -> b.failureRate(0.5).windowCalls(4).minimumCalls(2).slowCall("100ms"))
        .bulkhead("api", b -> b.adaptive(Bulkhead.Adaptive.AIMD).maxConcurrent(4))
        .build(registry);
  }

  @Test
  void slowSynchronousCallsOpenTheBreakerAndReturnTheirPermits() throws Exception {
    Stack<String> stack = stack();
    for (int i = 0; i < 2; i++) {
      assertEquals("late", stack.call(() -> {
        clock.advance(Duration.ofMillis(200));
        return "late";
      }));
    }
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("api").state(), "two slow calls of two");
    assertEquals(0, registry.bulkhead("api").inFlight());
  }

  @Test
  void slowAsynchronousCallsOpenTheBreakerAndReturnTheirPermits() throws Exception {
    Stack<String> stack = stack();
    for (int i = 0; i < 2; i++) {
      CompletableFuture<String> answer = new CompletableFuture<>();
      CompletableFuture<String> call = stack.callAsync(() -> answer);
      clock.advance(Duration.ofMillis(200));
      answer.complete("late");
      assertEquals("late", call.get());
    }
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("api").state(), "two slow calls of two");
    assertEquals(0, registry.bulkhead("api").inFlight());
  }
}
