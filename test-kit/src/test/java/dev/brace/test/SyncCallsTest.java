package dev.brace.test;

import static dev.brace.runtime.CircuitState.CLOSED;
import static dev.brace.runtime.CircuitState.HALF_OPEN;
import static dev.brace.runtime.CircuitState.OPEN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.CircuitOpenException;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The two scenarios every team writes first, each a few lines, on synchronous calls. */
@BraceTest
class SyncCallsTest {

  @Test
  void retriedTwiceThenTheFallbackAnswered(BraceTestKit brace) throws IOException {
    Catalog catalog = brace.wrap(Catalog.class, new ScriptedFake().failing(3));

    assertEquals(Catalog.UNKNOWN, catalog.item("42"));

    brace.call("Catalog.item").attempted(3).retried(2).waited(Duration.ofMillis(200)).thenFellBack();
  }

  @Test
  void retriedOnceThenTheDependencyAnswered(BraceTestKit brace) throws IOException {
    Catalog catalog = brace.wrap(Catalog.class, new ScriptedFake().failing(1));

    assertEquals("item 42", catalog.item("42"));

    brace.call("Catalog.item").retried(1).waited(Duration.ofMillis(100)).thenSucceeded();
    assertEquals(Duration.ofMillis(100), brace.elapsed(), "the backoff slept on the test's time, not the machine's");
  }

  @Test
  void theBreakerOpensWaitsThirtySecondsProbesAndCloses(BraceTestKit brace) throws IOException {
    Catalog catalog = brace.wrap(Catalog.class, new ScriptedFake().failing(5));
    for (int i = 0; i < 5; i++) {
      assertThrows(IOException.class, () -> catalog.price("42"));
    }
    assertThrows(CircuitOpenException.class, () -> catalog.price("42"));
    brace.call("Catalog.price").wasRejected();

    brace.advance(Duration.ofSeconds(30));
    assertEquals("item 42", catalog.price("42"));

    brace.breaker("catalog-api").wentThrough(OPEN, HALF_OPEN, CLOSED).isClosed();
    brace.call("Catalog.price").succeeded();
  }

  @Test
  void eachCallOfANameIsRecordedApart(BraceTestKit brace) throws IOException {
    Catalog catalog = brace.wrap(Catalog.class, new ScriptedFake().failing(1));

    catalog.item("1");
    catalog.item("2");

    assertEquals(2, brace.calls("Catalog.item").size());
    brace.calls("Catalog.item").get(0).retried(1).thenSucceeded();
    brace.call("Catalog.item").retried(0).attempted(1).thenSucceeded();
  }
}
