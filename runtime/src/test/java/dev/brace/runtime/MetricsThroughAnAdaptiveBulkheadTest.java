package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.Bulkhead;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A metrics listener times each attempt while an adaptive bulkhead times it too: the metrics timing
 * carries the bulkhead's slot, which carries the breaker's ticket. The breaker does not judge
 * latency here, so slow attempts are plain successes to it, the permit comes back through the slot,
 * and the attempt's duration reaches the listener.
 */
class MetricsThroughAnAdaptiveBulkheadTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).environment(java.util.Map.of())
      .systemProperties(java.util.Map.of()).build();
  private final List<Event> events = new CopyOnWriteArrayList<>();

  private Stack<String> stack() {
    registry.subscribeForMetrics(events::add);
    return Stack.<String>builder("calls")
        .circuitBreaker("api", b -> b.failureRate(0.5).windowCalls(4).minimumCalls(2))
        .bulkhead("api", b -> b.adaptive(Bulkhead.Adaptive.AIMD).maxConcurrent(4))
        .build(registry);
  }

  private List<Object> attemptDurations() {
    return events.stream().filter(e -> e.is(EventKind.CALL_SUCCEEDED))
        .map(e -> e.attributes().get("duration_ns")).collect(Collectors.toList());
  }

  @Test
  void synchronousAttemptsAreTimedForMetricsOnlyAndReturnTheirPermits() throws Exception {
    Stack<String> stack = stack();
    for (int i = 0; i < 2; i++) {
      assertEquals("late", stack.call(() -> {
        clock.advance(Duration.ofMillis(200));
        return "late";
      }));
    }
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("api").state(), "latency is not judged");
    assertEquals(0, registry.bulkhead("api").inFlight());
    long twoHundredMillis = Duration.ofMillis(200).toNanos();
    assertEquals(List.of(twoHundredMillis, twoHundredMillis), attemptDurations());
  }

  @Test
  void asynchronousAttemptsAreTimedForMetricsOnlyAndReturnTheirPermits() throws Exception {
    Stack<String> stack = stack();
    for (int i = 0; i < 2; i++) {
      CompletableFuture<String> answer = new CompletableFuture<>();
      CompletableFuture<String> call = stack.callAsync(() -> answer);
      assertEquals(1, registry.bulkhead("api").inFlight());
      clock.advance(Duration.ofMillis(200));
      answer.complete("late");
      assertEquals("late", call.get());
    }
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("api").state(), "latency is not judged");
    assertEquals(0, registry.bulkhead("api").inFlight());
    long twoHundredMillis = Duration.ofMillis(200).toNanos();
    assertEquals(List.of(twoHundredMillis, twoHundredMillis), attemptDurations());
  }
}
