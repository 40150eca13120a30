package dev.brace.test;

import static dev.brace.runtime.CircuitState.CLOSED;
import static dev.brace.runtime.CircuitState.OPEN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.opentest4j.AssertionFailedError;

/**
 * Every assertion fails when the behaviour it names is absent, and its message says what was
 * expected, what happened, and holds the timeline that shows why.
 */
@BraceTest
class FailedAssertionsTest {

  /** A call retried twice, then answered by its fallback, at +0, +0.1 s and +0.2 s. */
  private static RecordedCall retriedTwiceThenFellBack(BraceTestKit brace) throws IOException {
    brace.wrap(Catalog.class, new ScriptedFake().failing(3)).item("42");
    return brace.call("Catalog.item");
  }

  private static String fails(Executable assertion, String expected) {
    AssertionFailedError failure = assertThrows(AssertionFailedError.class, assertion);
    String message = failure.getMessage();
    assertTrue(message.contains(expected), "the message says what was expected and what happened:\n" + message);
    return message;
  }

  /** The timeline of the call above: each attempt, each wait, each decision, with its time. */
  private static void holdsTheTimeline(String message) {
    for (String line : new String[] {
        "Its timeline (time since the test began, event, instance, details):",
        "+0.000s  call.failed",
        "+0.000s  retry.attempt_failed   Catalog.item             attempt=1 delay_ms=100 exception=java.io.IOException"
            + " message=catalog down (1)",
        "+0.100s  retry.attempt_failed   Catalog.item             attempt=2 delay_ms=100",
        "+0.200s  retry.exhausted        Catalog.item             attempts=3 reason=attempts",
        "+0.200s  fallback.used",
        "+0.200s  call.ended             Catalog.item             outcome=fallback"}) {
      assertTrue(message.contains(line), "the timeline shows \"" + line + "\":\n" + message);
    }
  }

  @Test
  void retried(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    call.retried(2);
    holdsTheTimeline(fails(() -> call.retried(3),
        "call 1 of Catalog.item was expected to be retried 3 times, but it was retried 2 times."));
  }

  @Test
  void attempted(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    call.attempted(3);
    holdsTheTimeline(fails(() -> call.attempted(1), "expected to make 1 attempt, but made 3"));
  }

  @Test
  void waited(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    call.waited(Duration.ofMillis(200));
    holdsTheTimeline(fails(() -> call.waited(Duration.ofSeconds(1)), "expected to wait 1.000s, but it waited 0.200s"));
  }

  @Test
  void waitedAtLeast(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    call.waitedAtLeast(Duration.ofMillis(150)).waitedAtLeast(Duration.ofMillis(200));
    holdsTheTimeline(fails(() -> call.waitedAtLeast(Duration.ofMillis(201)), "expected to wait at least 0.201s, but it waited 0.200s"));
  }

  @Test
  void fellBack(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    call.fellBack().thenFellBack();
    brace.wrap(Catalog.class, new ScriptedFake()).item("7");
    RecordedCall answered = brace.call("Catalog.item");
    fails(answered::fellBack, "expected to end in fallback, but it ended in success");
    fails(answered::thenFellBack, "expected to end in fallback, but it ended in success");
  }

  @Test
  void succeeded(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    holdsTheTimeline(fails(call::succeeded, "expected to end in success, but it ended in fallback"));
    holdsTheTimeline(fails(call::thenSucceeded, "expected to end in success, but it ended in fallback"));
    brace.wrap(Catalog.class, new ScriptedFake()).item("7");
    brace.call("Catalog.item").succeeded();
  }

  @Test
  void failed(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    holdsTheTimeline(fails(call::failed, "expected to end in a failure, but it ended in fallback"));
    holdsTheTimeline(fails(call::thenFailed, "expected to end in a failure, but it ended in fallback"));
    Catalog catalog = brace.wrap(Catalog.class, new ScriptedFake().failing(1));
    assertThrows(IOException.class, () -> catalog.price("7"));
    brace.call("Catalog.price").failed().thenFailed();
  }

  @Test
  void wasRejected(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    holdsTheTimeline(fails(call::wasRejected, "expected to end in rejected, but it ended in fallback"));
  }

  @Test
  void timedOut(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    holdsTheTimeline(fails(call::timedOut, "expected to end in timeout, but it ended in fallback"));
  }

  @Test
  void servedStale(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    holdsTheTimeline(fails(call::servedStale, "expected to be answered from a remembered result, but it was not"));
  }

  @Test
  void hedged(BraceTestKit brace) throws IOException {
    RecordedCall call = retriedTwiceThenFellBack(brace);
    call.hedged(0);
    holdsTheTimeline(fails(() -> call.hedged(1), "expected to send 1 hedge, but it sent 0"));
  }

  @Test
  void breakerAssertions(BraceTestKit brace) throws IOException {
    Catalog catalog = brace.wrap(Catalog.class, new ScriptedFake().failing(5));
    for (int i = 0; i < 5; i++) {
      assertThrows(IOException.class, () -> catalog.price("42"));
    }
    RecordedBreaker breaker = brace.breaker("catalog-api").isOpen().wentThrough(OPEN);
    assertEquals(OPEN, breaker.state());
    Consumer<String> holdsItsTimeline = message -> assertTrue(
        message.contains("+0.000s  circuit.opened         catalog-api              failure_threshold=5 failures=5"), message);
    holdsItsTimeline.accept(fails(breaker::isClosed, "circuit breaker 'catalog-api' was expected to be CLOSED, but it is OPEN."));
    holdsItsTimeline.accept(fails(breaker::isHalfOpen, "to be HALF_OPEN, but it is OPEN"));
    holdsItsTimeline.accept(fails(() -> breaker.wentThrough(OPEN, CLOSED), "to go through [OPEN, CLOSED], but it went through [OPEN]"));
    brace.registry().circuitBreaker("catalog-api").reset();
    fails(brace.breaker("catalog-api")::isOpen, "to be OPEN, but it is CLOSED");
  }

  @Test
  void aCallNeverMadeIsNamedWithTheCallsThatWere(BraceTestKit brace) throws IOException {
    retriedTwiceThenFellBack(brace);

    fails(() -> brace.call("Catalog.items"),
        "no call named 'Catalog.items' was made in this test; the calls made: [Catalog.item]");
    assertEquals(0, brace.calls("Catalog.items").size());
  }
}
