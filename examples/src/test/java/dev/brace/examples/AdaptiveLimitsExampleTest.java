package dev.brace.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.Criticality;
import dev.brace.examples.capacity.TooManyRequestsException;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * What the guide's "Adaptive limits and load shedding" says: sheddable calls are refused first,
 * an adaptive limit follows the dependency, and an adaptive limiter backs off on a 429.
 */
class AdaptiveLimitsExampleTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock)
      .environment(Map.of()).systemProperties(Map.of()).build();

  /** Asynchronous, so a test holds calls in flight with futures it completes itself. */
  @Bulkhead(name = "search", maxConcurrent = 4)
  interface Search {
    CompletableFuture<String> results(String query);

    @Criticality(Criticality.Level.SHEDDABLE)
    CompletableFuture<String> suggestions(String prefix);
  }

  @Test
  void sheddableCallsGetHalfTheLimitAndDefaultCallsNinetyPercent() {
    List<CompletableFuture<String>> held = new ArrayList<>();
    Search search = ResilientAdaptiveLimitsExampleTest_Search.wrap(new Search() {
      @Override
      public CompletableFuture<String> results(String query) {
        return hold();
      }

      @Override
      public CompletableFuture<String> suggestions(String prefix) {
        return hold();
      }

      private CompletableFuture<String> hold() {
        CompletableFuture<String> call = new CompletableFuture<>();
        held.add(call);
        return call;
      }
    }, registry);

    search.suggestions("a");
    search.suggestions("b");
    CompletionException shed = assertThrows(CompletionException.class, () -> search.suggestions("c").join());
    assertTrue(shed.getCause() instanceof BulkheadFullException, "a third suggestion is shed: 2 of 4 is half the limit");
    search.results("x");
    search.results("y");
    assertEquals(4, registry.bulkhead("search").inFlight(), "pages still get in: ceil(4 × 0.9) = 4");
    held.forEach(call -> call.complete("done"));
    assertEquals(0, registry.bulkhead("search").inFlight());
  }

  @Test
  void anAdaptiveLimitGrowsWhileCallsAreFastAndBacksOffOnTimeouts() throws Exception {
    Stack<String> stack = Stack.<String>builder("Checkout.pay")
        .criticality(Criticality.Level.CRITICAL)
        .bulkhead("catalog", b -> b.maxConcurrent(60).adaptive(Bulkhead.Adaptive.AIMD).initialConcurrent(20).minConcurrent(4))
        .timeout(t -> t.duration("1s"))
        .build(registry);
    int grown = 0;
    for (int round = 0; round < 3; round++) {
      List<CompletableFuture<String>> calls = new ArrayList<>();
      List<CompletableFuture<String>> answers = new ArrayList<>();
      for (int i = 0; i < registry.bulkhead("catalog").limit(); i++) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        answers.add(answer);
        calls.add(stack.callAsync(() -> answer));
      }
      clock.advance(Duration.ofMillis(100));
      answers.forEach(answer -> answer.complete("page"));
      calls.forEach(CompletableFuture::join);
      grown = registry.bulkhead("catalog").limit();
    }
    assertEquals(60, grown, "busy and fast: the limit climbs to the ceiling");
    List<CompletableFuture<String>> slow = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      slow.add(stack.callAsync(CompletableFuture::new));
    }
    clock.advance(Duration.ofSeconds(1));
    slow.forEach(call -> assertThrows(CompletionException.class, call::join));
    assertEquals(18, registry.bulkhead("catalog").limit(), "ten timeouts: 60 × 0.9, ten times, rounded down at each step");
  }

  @Test
  void anAdaptiveLimiterHalvesItsRateOnA429AndWaitsOutRetryAfter() throws Exception {
    Stack<String> quota = Stack.<String>builder("Quota.lookup")
        .rateLimit("quota-api", r -> r.permits(200).per("1s").adaptive(true).throttledOn(TooManyRequestsException.class))
        .build(registry);
    assertThrows(TooManyRequestsException.class, () -> quota.call(() -> {
      throw new TooManyRequestsException("429", Duration.ofSeconds(1));
    }));
    assertEquals(100.0, registry.rateLimiter("quota-api").currentRate());
    RateLimitedException waiting = assertThrows(RateLimitedException.class, () -> quota.call(() -> "never"));
    assertEquals(Duration.ofSeconds(1), waiting.retryAfter().orElseThrow());
    clock.advance(Duration.ofSeconds(1));
    assertEquals("ok", quota.call(() -> "ok"));
    assertEquals(102.0, registry.rateLimiter("quota-api").currentRate(), "every success adds permits / 100");
  }
}
