package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What metrics listeners hear about each attempt ({@code call.succeeded}, {@code call.failed}) and
 * each call ({@code call.ended}): once per outcome, with the instances it went through and, for a
 * call that did not return, whose doing that was.
 */
class CallOutcomeEventsTest {
  private final ManualTimeSource time = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(time).build();
  private final List<Event> metrics = new CopyOnWriteArrayList<>();

  CallOutcomeEventsTest() {
    registry.subscribeForMetrics(metrics::add);
  }

  private List<Event> all(String kind) {
    return metrics.stream().filter(event -> event.kind().equals(kind)).toList();
  }

  private Map<String, Object> only(String kind) {
    List<Event> matching = all(kind);
    assertEquals(1, matching.size(), kind + " is heard once");
    return matching.get(0).attributes();
  }

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new HashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  @Test
  void eachAttemptNamesEveryInstanceItWentThrough() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.all")
        .retry(r -> r.maxAttempts(2).delay("100ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker("cb", b -> b.failureThreshold(5))
        .rateLimit("rl", l -> l.permits(100).per("1s"))
        .bulkhead("bh", b -> b.maxConcurrent(2))
        .timeout(t -> t.duration("1s"))
        .build(registry);
    AtomicInteger attempts = new AtomicInteger();

    String result = stack.call(() -> {
      time.sleep(Duration.ofMillis(30));
      if (attempts.incrementAndGet() == 1) {
        throw new IOException("first");
      }
      return "ok";
    });

    assertEquals("ok", result);
    Map<String, Object> instances = map("circuitbreaker", "cb", "ratelimit", "rl", "bulkhead", "bh",
        "timeout", "S.all", "retry", "S.all");
    Map<String, Object> failed = new HashMap<>(instances);
    failed.putAll(map("duration_ns", 30_000_000L, "exception", IOException.class.getName(), "message", "first"));
    Map<String, Object> succeeded = new HashMap<>(instances);
    succeeded.put("duration_ns", 30_000_000L);
    assertEquals(failed, only("call.failed"));
    assertEquals(succeeded, only("call.succeeded"));
    assertEquals(map("outcome", "success", "duration_ns", 160_000_000L), only("call.ended"),
        "the call's duration spans both attempts and the backoff between them");
  }

  @Test
  void aHedgedAttemptNamesItsHedge() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.hedged")
        .hedge(h -> h.delay("1s"))
        .build(registry);

    assertEquals("ok", stack.call(() -> "ok"));

    assertEquals("S.hedged", only("call.succeeded").get("hedge"));
  }

  @Test
  void aFailureTheFallbackAnswersEndsAsFallback() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.fallback")
        .fallback(failure -> "answered")
        .build(registry);

    assertEquals("answered", stack.call(() -> {
      throw new IOException("down");
    }));

    assertEquals(map("outcome", "fallback", "duration_ns", 0L, "by_kind", "fallback", "by", "S.fallback"),
        only("call.ended"));
  }

  @Test
  void aRefusalOfTheCallsOwnInstanceEndsAsRejectedByIt() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.own")
        .circuitBreaker("tenant", b -> b.failureThreshold(1).resetTimeout("10s").key("{tenant}"))
        .rateLimit("quota", l -> l.permits(1).per("1s").burst(1).maxWait("0s").key("{tenant}"))
        .bulkhead("pool", b -> b.maxConcurrent(1))
        .build(registry);

    assertThrows(IOException.class, () -> stack.call("acme", () -> {
      throw new IOException("down");
    }));
    assertThrows(CircuitOpenException.class, () -> stack.call("acme", () -> "never"));
    assertEquals("ok", stack.call("other", () -> "ok"));
    assertThrows(RateLimitedException.class, () -> stack.call("other", () -> "never"));

    List<Event> ended = all("call.ended");
    assertEquals(4, ended.size());
    assertEquals(map("outcome", "failure", "duration_ns", 0L), ended.get(0).attributes());
    assertEquals(map("outcome", "rejected", "duration_ns", 0L, "by_kind", "circuitbreaker", "by", "tenant[acme]"),
        ended.get(1).attributes());
    assertEquals(map("outcome", "rejected", "duration_ns", 0L, "by_kind", "ratelimit", "by", "quota[other]"),
        ended.get(3).attributes());
  }

  @Test
  void aFullBulkheadOfTheCallEndsAsRejectedByIt() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.pool")
        .bulkhead("pool", b -> b.maxConcurrent(1))
        .build(registry);

    stack.call(() -> {
      assertThrows(dev.brace.runtime.BulkheadFullException.class, () -> stack.call(() -> "never"));
      return "outer";
    });

    assertEquals(map("outcome", "rejected", "duration_ns", 0L, "by_kind", "bulkhead", "by", "pool"),
        all("call.ended").get(0).attributes());
  }

  @Test
  void aRefusalFromFurtherDownIsAFailureOfTheDependency() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.deeper")
        .circuitBreaker("cb", b -> b.failureThreshold(10))
        .rateLimit("rl", l -> l.permits(100).per("1s"))
        .bulkhead("bh", b -> b.maxConcurrent(2))
        .timeout(t -> t.duration("1s"))
        .build(registry);

    for (Exception deeper : List.of(
        new CircuitOpenException("cbx", Duration.ofSeconds(1)),
        new CircuitOpenException("rl", Duration.ofSeconds(1)),
        new RateLimitedException("rl-other", Duration.ofSeconds(1), null),
        new RateLimitedException("cb", Duration.ofSeconds(1), null),
        new dev.brace.runtime.BulkheadFullException("bh2", 1, null),
        new TimeoutExceededException("Other.call", Duration.ofSeconds(1)))) {
      assertThrows(Exception.class, () -> stack.call(() -> {
        throw deeper;
      }));
    }

    for (Event ended : all("call.ended")) {
      assertEquals(map("outcome", "failure", "duration_ns", 0L), ended.attributes(),
          "another instance's refusal or timeout is what the dependency answered");
    }
    assertEquals(6, all("call.ended").size());
  }

  @Test
  void theCallsOwnTimeoutEndsAsTimeout() {
    Stack<String> stack = Stack.<String>builder("S.slow")
        .timeout(t -> t.duration("1s"))
        .build(registry);

    assertThrows(TimeoutExceededException.class, () -> stack.call(() -> {
      time.sleep(Duration.ofSeconds(5));
      return "late";
    }));

    assertEquals(map("outcome", "timeout", "duration_ns", 1_000_000_000L, "by_kind", "timeout", "by", "S.slow"),
        only("call.ended"));
  }

  @Test
  void anAsyncCallIsHeardToEndOnceWhetherItsOutcomeIsThereAtOnceOrLater() {
    Stack<String> stack = Stack.<String>builder("S.async")
        .retry(r -> r.maxAttempts(2).delay("100ms").jitter(Retry.Jitter.NONE).on(IOException.class))
        .build(registry);
    CompletableFuture<String> succeeding = new CompletableFuture<>();
    CompletableFuture<String> failing = new CompletableFuture<>();

    CompletableFuture<String> ready = stack.callAsync(() -> CompletableFuture.completedFuture("at once"));
    CompletableFuture<String> success = stack.callAsync(() -> succeeding);
    time.advance(Duration.ofMillis(40));
    succeeding.complete("late");
    CompletableFuture<String> failure = stack.callAsync(() -> failing);
    failing.completeExceptionally(new IllegalStateException("not retried"));

    assertEquals("at once", ready.getNow(null));
    assertEquals("late", success.getNow(null));
    assertTrue(failure.isCompletedExceptionally());
    List<Event> ended = all("call.ended");
    assertEquals(3, ended.size());
    assertEquals(map("outcome", "success", "duration_ns", 0L), ended.get(0).attributes(), "answered on the caller's thread");
    assertEquals(map("outcome", "success", "duration_ns", 40_000_000L), ended.get(1).attributes());
    assertEquals(map("outcome", "failure", "duration_ns", 0L), ended.get(2).attributes());
  }

  @Test
  void anAsyncCallWhoseResultsAreRetriedUntilTheRetryRunsOutIsHeardToEndOnceWithTheLastResult() {
    Stack<String> stack = Stack.<String>builder("S.asyncResults")
        .retry(r -> r.maxAttempts(2).delay("100ms").jitter(Retry.Jitter.NONE).onResult("busy"::equals))
        .build(registry);
    AtomicInteger calls = new AtomicInteger();

    CompletableFuture<String> result = stack.callAsync(() -> {
      calls.incrementAndGet();
      return CompletableFuture.completedFuture("busy");
    });
    time.advance(Duration.ofMillis(100));

    assertEquals("busy", result.getNow(null), "the last result is the call's answer");
    assertEquals(2, calls.get());
    List<Event> ended = all("call.ended");
    assertEquals(1, ended.size(), "heard to end once, when the retry ran out on the scheduler's thread");
    assertEquals(map("outcome", "success", "duration_ns", 100_000_000L), ended.get(0).attributes());
  }
}
