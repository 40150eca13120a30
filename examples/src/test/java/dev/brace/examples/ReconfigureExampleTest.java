package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import java.lang.ref.Reference;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The guide's "Live reconfiguration" block: what it claims, through the generated ResilientRecsClient. */
class ReconfigureExampleTest {

  @Test
  void newSettingsReachTheLiveBreakerWhichStaysOpen() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = Registry.builder().timeSource(clock).environment(Map.of()).systemProperties(Map.of()).build();
    List<Event> events = new CopyOnWriteArrayList<>();
    registry.subscribe(events::add);
    FakeRecsClient fake = new FakeRecsClient();
    RecsClient recs = ResilientRecsClient.wrap(fake, registry);
    fake.failWith("down");
    for (int i = 0; i < 10; i++) {
      recs.recommendations("ada");
    }
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("recs-api").state());

    // As the guide's block does it:
    registry.reconfigure(
        Map.of("BRACE_CIRCUITBREAKER_RECS_API_FAILURE_RATE", "0.25",
            "BRACE_RETRY_RECSCLIENT_RECOMMENDATIONS_MAX_ATTEMPTS", "2"),
        Map.of());
    // The registry holds wrappers weakly and resolves only live ones again: as an application
    // keeps its client in a field, the test keeps its own alive until the change is reported.
    Reference.reachabilityFence(recs);
    CircuitState state = registry.circuitBreaker("recs-api").state();
    String failureRate = registry.settings("circuitbreaker", "recs-api").get("failureRate");

    assertEquals(CircuitState.OPEN, state, "the breaker keeps its state");
    assertEquals("0.25", failureRate);
    assertEquals(List.of("failureRate 0.6 -> 0.25", "maxAttempts 3 -> 2"), events.stream()
        .filter(event -> event.kind().equals("config.changed"))
        .map(event -> event.attributes().get("property") + " " + event.attributes().get("from") + " -> " + event.attributes().get("to"))
        .sorted().toList());

    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> registry.reconfigure(
        Map.of("BRACE_CIRCUITBREAKER_RECS_API_FAILURE_RATE", "1.5"), Map.of()));
    assertTrue(refused.getMessage().contains("BRACE_CIRCUITBREAKER_RECS_API_FAILURE_RATE=1.5"), refused.getMessage());
    assertEquals("0.25", registry.settings("circuitbreaker", "recs-api").get("failureRate"), "nothing changed");
  }
}
