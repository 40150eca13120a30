package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The guide's "Fault injection" block: a fallback proved by configuration, through the generated ResilientRecsClient. */
class FaultInjectionExampleTest {

  @Test
  void theFallbackAnswersWhenEveryAttemptFailsAndTheServiceIsNeverCalled() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    // As the guide's block does it, on manual time so the retry's backoff costs nothing:
    Registry registry = Registry.builder()
        .environment(Map.of("BRACE_CHAOS_ENABLED", "true"))
        .systemProperties(Map.of())
        .chaos("recs-api", c -> c.faultRate(1))
        .timeSource(clock)
        .build();
    List<Event> events = new CopyOnWriteArrayList<>();
    registry.subscribe(events::add);
    FakeRecsClient service = new FakeRecsClient();
    RecsClient recs = ResilientRecsClient.wrap(service, registry);

    List<String> picks = recs.recommendations("ada");

    assertEquals(RecsClient.EDITORS_PICKS, picks);
    assertEquals(0, service.calls(), "the service was never called");
    assertEquals(3, events.stream().filter(event -> event.kind().equals("chaos.injected")).count(), "every attempt of the retry");
    assertEquals(1, events.stream().filter(event -> event.kind().equals("fallback.used")).count());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("recs-api").state(), "three failures are below minimumCalls");
    assertTrue(registry.describe().toString().contains("chaos recs-api"), registry.describe().toString());
  }
}
