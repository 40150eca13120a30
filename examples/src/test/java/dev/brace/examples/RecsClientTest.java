package dev.brace.examples;

import static dev.brace.runtime.CircuitState.CLOSED;
import static dev.brace.runtime.CircuitState.HALF_OPEN;
import static dev.brace.runtime.CircuitState.OPEN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import dev.brace.test.BraceTest;
import dev.brace.test.BraceTestKit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What README.md and the guide (docs/guide/) say {@link RecsClient}'s annotations do, through the generated
 * wrapper on the test kit's manual time. The guide's testing page (docs/guide/testing.md) shows the second test as it is.
 */
@BraceTest
class RecsClientTest {

  @Test
  void aFailingCallIsTriedThreeTimesThenTheFallbackAnswers(BraceTestKit brace) throws Exception {
    FakeRecsClient fake = new FakeRecsClient();
    RecsClient client = brace.wrap(RecsClient.class, fake);

    fake.failWith("down");

    assertEquals(RecsClient.EDITORS_PICKS, client.recommendations("ada"));
    brace.call("RecsClient.recommendations").attempted(3).retried(2).thenFellBack();   // maxAttempts = 3 counts the first try
  }

  @Test
  void theBreakerOpensWhenMostCallsFailAndAProbeClosesIt(BraceTestKit brace) throws Exception {
    FakeRecsClient fake = new FakeRecsClient();
    RecsClient client = brace.wrap(RecsClient.class, fake);

    fake.failWith("down");
    for (int i = 0; i < 10; i++) {
      assertEquals(RecsClient.EDITORS_PICKS, client.recommendations("ada"));   // the fallback answers
    }
    brace.breaker("recs-api").isOpen();
    assertEquals(10, fake.calls());   // 10 failed attempts in the last second open it; then no call gets through

    brace.advance(Duration.ofSeconds(1));   // the reset timeout passes
    fake.succeed();
    assertEquals(List.of("item-1", "item-2"), client.recommendations("ada"));   // the probe
    brace.breaker("recs-api").wentThrough(OPEN, HALF_OPEN, CLOSED);
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
