package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.Bulkhead;
import dev.brace.Retry;
import dev.brace.runtime.internal.sequence.ResilientCalls;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Which calls make their first attempt without waiting, without a frame: exactly those whose every
 * pattern may take what it needs now, untimed and uninjected, and whose call has no step around
 * the attempts that needs the frame. Each shape that must go the staged way is named here, so a
 * pattern added to the list of exclusions, or dropped from it, shows.
 */
class CallsWithoutWaitingTest {
  /** Fault injection is on for this registry, so a stack's chaos settings take effect. */
  private final Registry registry = Registry.builder()
      .environment(Map.of("BRACE_CHAOS_ENABLED", "true")).systemProperties(Map.of()).build();

  private boolean withoutWaiting(String name, UnaryOperator<Stack.Builder<String>> parts) {
    return ResilientCalls.current(parts.apply(Stack.builder(name)).build(registry).resilientCall()).callsWithoutWaiting();
  }

  @Test
  void callsOfEveryShapeThatCanTryWithoutWaitingDoAndNoOther() {
    Map<String, Boolean> shapes = new LinkedHashMap<>();
    shapes.put("a retry", withoutWaiting("s.retry", b -> b.retry(r -> r.maxAttempts(2))));
    shapes.put("four patterns", withoutWaiting("s.four", b -> b
        .retry(r -> r.maxAttempts(3).delay("0ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker("s-four", c -> c.failureThreshold(5))
        .rateLimit("s-four", l -> l.permits(100).per("1s"))
        .bulkhead("s-four", h -> h.maxConcurrent(10))));
    shapes.put("a fallback", withoutWaiting("s.fallback", b -> b.fallback(failure -> "answered")));
    shapes.put("a timeout", withoutWaiting("s.timeout", b -> b.timeout(t -> t.duration("1s"))));
    shapes.put("a latency-judging breaker", withoutWaiting("s.slow", b -> b.circuitBreaker("s-slow", c -> c.slowCall("1s"))));
    shapes.put("an adaptive bulkhead", withoutWaiting("s.adaptive",
        b -> b.bulkhead("s-adaptive", h -> h.maxConcurrent(10).adaptive(Bulkhead.Adaptive.AIMD))));
    shapes.put("fault injection", withoutWaiting("s.chaos", b -> b.retry(r -> r.maxAttempts(2)).chaos(c -> c.latency("1ms").latencyRate(0.5))));
    shapes.put("a keyed breaker", withoutWaiting("s.keyedBreaker", b -> b.circuitBreaker("s-keyed", c -> c.key("{tenant}"))));
    shapes.put("a keyed limiter", withoutWaiting("s.keyedLimiter", b -> b.rateLimit("s-keyed", l -> l.permits(10).per("1s").key("{tenant}"))));
    shapes.put("a hedge", withoutWaiting("s.hedge", b -> b.hedge(h -> h.delay("100ms"))));
    shapes.put("remembered results", withoutWaiting("s.stale", b -> b.staleIfError(s -> s.maxAge("1m"))));
    shapes.put("a result predicate", withoutWaiting("s.onResult", b -> b.retry(r -> r.onResult(result -> false))));
    shapes.put("a maxDuration", withoutWaiting("s.maxDuration", b -> b.retry(r -> r.maxDuration("10s"))));

    Map<String, Boolean> expected = new LinkedHashMap<>();
    shapes.keySet().forEach(shape -> expected.put(shape, false));
    expected.put("a retry", true);
    expected.put("four patterns", true);
    expected.put("a fallback", true);
    assertEquals(expected, shapes);
  }
}
