package dev.brace.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code brace.chaos.injections}: one count per injected fault or latency, tagged by what the name names. */
class ChaosMetersTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @Test
  void countsEachInjectionByKindNameAndWhat() throws Exception {
    Registry brace = Registry.builder().timeSource(clock).systemProperties(Map.of()).environment(Map.of(
        "BRACE_CHAOS_ENABLED", "true",
        "BRACE_CHAOS_RECS_API_FAULT_RATE", "1",
        "BRACE_CHAOS_QUOTES_LATENCY", "100ms",
        "BRACE_CHAOS_QUOTES_LATENCY_RATE", "1")).build();
    AutoCloseable binding = BraceMetrics.bind(brace, meters);
    Stack<String> recs = Stack.<String>builder("recs").retry(r -> r.maxAttempts(3).delay("10ms"))
        .circuitBreaker("recs-api", b -> b.failureThreshold(100)).build(brace);
    Stack<String> quotes = Stack.<String>builder("quotes").retry(r -> r.maxAttempts(1)).build(brace);
    assertThrows(IOException.class, () -> recs.call(() -> "ok"));
    assertEquals("ok", quotes.call(() -> "ok"));
    assertEquals("ok", quotes.call(() -> "ok"));

    assertEquals(3.0, counter("circuitbreaker", "recs-api", "fault").count(), "one per attempt the retry made");
    assertEquals(2.0, counter("call", "quotes", "latency").count());
    binding.close();
    assertNull(meters.find(ChaosMeters.NAME).counter(), "closing the binding removes the counters");
  }

  private Counter counter(String kind, String name, String what) {
    return meters.get(ChaosMeters.NAME).tags("kind", kind, "name", name, "what", what).counter();
  }
}
