package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What README.md and the guide (docs/guide/) say {@link RecsClient}'s annotations do, through the generated
 * wrapper on manual time. The guide's testing page (docs/guide/testing.md) shows the second test as it is.
 */
class RecsClientTest {

  @Test
  void aFailingCallIsTriedThreeTimesThenTheFallbackAnswers() throws Exception {
    Registry registry = Registry.builder().timeSource(new ManualTimeSource())
        .environment(Map.of()).systemProperties(Map.of()).build();
    FakeRecsClient fake = new FakeRecsClient();
    RecsClient client = ResilientRecsClient.wrap(fake, registry);

    fake.failWith("down");

    assertEquals(RecsClient.EDITORS_PICKS, client.recommendations("ada"));
    assertEquals(3, fake.calls(), "@Retry(maxAttempts = 3) counts the first try");
  }

  @Test
  void theBreakerOpensWhenMostCallsFailAndAProbeClosesIt() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = Registry.builder().timeSource(clock)   // and its scheduler
        .environment(Map.of()).systemProperties(Map.of())      // no BRACE_* variable of this machine applies
        .build();
    List<Event> events = new CopyOnWriteArrayList<>();
    registry.subscribe(events::add);
    FakeRecsClient fake = new FakeRecsClient();
    RecsClient client = ResilientRecsClient.wrap(fake, registry);

    fake.failWith("down");
    for (int i = 0; i < 10; i++) {
      assertEquals(RecsClient.EDITORS_PICKS, client.recommendations("ada"));   // the fallback answers
    }
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("recs-api").state());
    assertEquals(10, fake.calls());   // 10 failed attempts in the last second open it; then no call gets through
    assertTrue(events.stream().anyMatch(event -> event.kind().equals("circuit.opened")));

    clock.advance(Duration.ofSeconds(1));   // the reset timeout passes
    fake.succeed();
    assertEquals(List.of("item-1", "item-2"), client.recommendations("ada"));   // the probe
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("recs-api").state());
  }

  @Test
  void aRegistryKnowsTheInstancesOfItsWrappersAndRefusesAnUnknownName() {
    Registry registry = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
    ResilientRecsClient.wrap(new FakeRecsClient(), registry);

    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("recs-api").state());
    assertEquals(0, registry.bulkhead("recs-api").inFlight());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> registry.circuitBreaker("recs-apu"));
    assertTrue(unknown.getMessage().contains("recs-api"), "names the breakers it has: " + unknown.getMessage());
  }
}
