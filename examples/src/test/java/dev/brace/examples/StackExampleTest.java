package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the guide's "Stack" section says, with the stacks it shows (same parts, same numbers) on
 * manual time and with a counting call in place of the HTTP request.
 */
class StackExampleTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock)
      .environment(Map.of()).systemProperties(Map.of()).build();
  private final AtomicInteger calls = new AtomicInteger();

  /** The guide's stack, its parts written in the same (any) order. */
  private Stack<String> quotes() {
    return Stack.<String>builder("quotes.latest")
        .fallback(failure -> "no quote")
        .timeout(t -> t.duration("500ms"))
        .bulkhead("quotes-api", b -> b.maxConcurrent(4))
        .circuitBreaker("quotes-api", b -> b.failureThreshold(5).resetTimeout("10s"))
        .retry(r -> r.maxAttempts(3).delay("100ms").on(IOException.class))
        .build(registry);
  }

  private String failing() throws IOException {
    calls.incrementAndGet();
    throw new IOException("503 from quotes.example");
  }

  @Test
  void aFailingCallIsTriedThreeTimesThenTheFallbackAnswers() throws Exception {
    assertEquals("no quote", quotes().call(this::failing));
    assertEquals(3, calls.get());
  }

  @Test
  void fiveFailuresInARowOpenTheBreakerWhichTheRetryDoesNotRetry() throws Exception {
    Stack<String> quotes = quotes();

    assertEquals("no quote", quotes.call(this::failing));   // attempts 1-3 fail
    assertEquals("no quote", quotes.call(this::failing));   // 4 and 5 fail: open; the third attempt is refused

    assertEquals(5, calls.get());
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("quotes-api").state());
    assertEquals("no quote", quotes.call(() -> "never called"));
    assertEquals(5, calls.get());
  }

  @Test
  void aKeyedPartIsOneBreakerPerKeyGivenWithEachCall() throws Exception {
    Stack<String> pages = Stack.<String>builder("pages.fetch")
        .circuitBreaker("hosts", b -> b.failureThreshold(3).key("{host}"))
        .build(registry);

    for (int i = 0; i < 3; i++) {
      assertThrows(IOException.class, () -> pages.call("a.example", this::failing));
    }

    assertThrows(CircuitOpenException.class, () -> pages.call("a.example", () -> "refused"));
    assertEquals("ok", pages.call("b.example", () -> "ok"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("hosts[a.example]").state());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("hosts[b.example]").state());
    assertThrows(IllegalArgumentException.class, () -> pages.call(() -> "a keyed stack needs a key"));
  }

  @Test
  void callAsyncAppliesTheSameParts() throws Exception {
    CompletableFuture<String> quote = quotes().callAsync(() -> {
      calls.incrementAndGet();
      return CompletableFuture.failedFuture(new IOException("503 from quotes.example"));
    });
    clock.advance(java.time.Duration.ofSeconds(1));   // the backoffs are scheduled on the registry's scheduler

    assertEquals("no quote", quote.get());
    assertEquals(3, calls.get());
  }

  @Test
  void aStackThatNamesRecsApiSharesTheBreakerOfTheGeneratedWrapper() throws Exception {
    FakeRecsClient fake = new FakeRecsClient();
    RecsClient client = ResilientRecsClient.wrap(fake, registry);
    Stack<List<String>> trending = Stack.<List<String>>builder("recs.trending")
        .circuitBreaker("recs-api", b -> b.failureRate(0.6).window("1s").minimumCalls(10).resetTimeout("1s"))
        .build(registry);

    for (int i = 0; i < 10; i++) {
      assertThrows(IOException.class, () -> trending.call(() -> {
        throw new IOException("down");
      }));
    }

    assertEquals(CircuitState.OPEN, registry.circuitBreaker("recs-api").state());
    assertEquals(RecsClient.EDITORS_PICKS, client.recommendations("ada"), "refused at once; its fallback answers");
    assertEquals(0, fake.calls());
  }
}
