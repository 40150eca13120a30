package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Where a deadline is decided, on manual time: admission (a passed deadline, a limiter token or a
 * bulkhead permit that would come too late), the attempt's bound (its timeout shrunk to what is
 * left, or the deadline alone for a call without one), the retry's decision, and what a call passes
 * on to the calls nested in it — sync and async alike.
 */
class DeadlineDecisionsTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final List<Event> events = new CopyOnWriteArrayList<>();
  private final Registry registry = registry(Map.of(), b -> {});

  private Registry registry(Map<String, String> environment, java.util.function.Consumer<Registry.Builder> more) {
    Registry.Builder builder = Registry.builder().timeSource(clock).environment(environment).systemProperties(Map.of());
    more.accept(builder);
    Registry built = builder.build();
    built.subscribe(events::add);
    return built;
  }

  private Deadline.Scope within(long millis) {
    return Deadline.open(Duration.ofMillis(millis), clock);
  }

  private List<Event> events(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).collect(Collectors.toList());
  }

  /** A dependency that hangs on manual time until interrupted. */
  private String hang() throws InterruptedException {
    clock.sleep(Duration.ofHours(1));
    return "too late";
  }

  // ---- a deadline that has passed ----

  @Test
  void aCallPastItsDeadlineFailsAtOnceWithoutReachingItsDependencyOrItsBreaker() {
    Stack<String> stack = Stack.<String>builder("Quotes.quote")
        .retry(r -> r.maxAttempts(3).delay("10ms"))
        .circuitBreaker("quotes", b -> b.failureThreshold(1))
        .build(registry);
    AtomicInteger reached = new AtomicInteger();
    try (Deadline.Scope scope = within(100)) {
      clock.advance(Duration.ofMillis(150));
      DeadlineExceededException exceeded = assertThrows(DeadlineExceededException.class,
          () -> stack.call(() -> "v" + reached.incrementAndGet()));
      assertEquals("Quotes.quote", exceeded.instance());
      assertEquals(Duration.ofMillis(50), exceeded.overrun());
    }
    assertEquals(0, reached.get(), "the dependency was not called");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("quotes").state());
    Event reported = events("deadline.exceeded").get(0);
    assertEquals("Quotes.quote", reported.instance());
    assertEquals(100L, reported.attributes().get("budget_ms"));
    assertEquals(50L, reported.attributes().get("overrun_ms"));
  }

  @Test
  void anAsyncCallPastItsDeadlineFailsItsFutureAtOnce() {
    Stack<String> stack = Stack.<String>builder("Quotes.quoteAsync")
        .circuitBreaker("quotes-async", b -> b.failureThreshold(1)).build(registry);
    AtomicInteger reached = new AtomicInteger();
    CompletableFuture<String> future;
    try (Deadline.Scope scope = within(100)) {
      clock.advance(Duration.ofMillis(100));
      future = stack.callAsync(() -> CompletableFuture.completedFuture("v" + reached.incrementAndGet()));
    }
    assertInstanceOf(DeadlineExceededException.class, assertThrows(ExecutionException.class, future::get).getCause());
    assertEquals(0, reached.get());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("quotes-async").state());
  }

  // ---- the attempt's bound ----

  @Test
  void anAttemptTimeoutShrinksToWhatIsLeftAndTheCutIsNotCountedByTheBreaker() {
    Stack<String> stack = Stack.<String>builder("Stock.level")
        .circuitBreaker("stock", b -> b.failureThreshold(1))
        .timeout(t -> t.duration("2s"))
        .build(registry);
    long start = clock.nanoTime();
    try (Deadline.Scope scope = within(300)) {
      assertThrows(DeadlineExceededException.class, () -> stack.call(this::hang));
    }
    assertEquals(Duration.ofMillis(300), Duration.ofNanos(clock.nanoTime() - start), "cut at the deadline, not at 2s");
    assertFalse(Thread.currentThread().isInterrupted(), "the interrupt Brace caused is cleared");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("stock").state(), "the caller ran out of time");
    assertTrue(events("timeout.exceeded").isEmpty(), "the call's own timeout did not expire");

    long again = clock.nanoTime();
    assertThrows(TimeoutExceededException.class, () -> stack.call(this::hang));
    assertEquals(Duration.ofSeconds(2), Duration.ofNanos(clock.nanoTime() - again), "without a deadline, its own timeout");
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("stock").state(), "its own timeout is counted");
  }

  @Test
  void aCallWithoutATimeoutOfItsOwnIsBoundedByTheDeadlineItInherits() {
    Stack<String> stack = Stack.<String>builder("Stock.plain").circuitBreaker("plain", b -> b.failureThreshold(1)).build(registry);
    long start = clock.nanoTime();
    try (Deadline.Scope scope = within(250)) {
      assertThrows(DeadlineExceededException.class, () -> stack.call(this::hang));
    }
    assertEquals(Duration.ofMillis(250), Duration.ofNanos(clock.nanoTime() - start));
    assertFalse(Thread.currentThread().isInterrupted());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("plain").state());
  }

  @Test
  void anAbandoningTimeoutReleasesItsCallerAtTheDeadline() throws Exception {
    Stack<String> stack = Stack.<String>builder("Stock.abandon")
        .timeout(t -> t.duration("2s").mode(Timeout.Mode.ABANDON)).build(registry);
    AtomicReference<Optional<Deadline>> seen = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try (Deadline.Scope scope = within(300)) {
        stack.call(() -> {
          seen.set(Deadline.current());
          return hangInRealTime();
        });
      } catch (Exception expected) {
        seen.compareAndSet(null, Optional.empty());
        failure.set(expected);
      }
    });
    caller.start();
    while (seen.get() == null) {
      LockSupport.parkNanos(1_000_000);
    }
    clock.advance(Duration.ofMillis(300));
    caller.join(10_000);
    assertInstanceOf(DeadlineExceededException.class, failure.get());
    assertEquals(Duration.ofMillis(300), seen.get().orElseThrow().budget(), "the worker ran under the caller's deadline");
  }

  private final AtomicReference<Exception> failure = new AtomicReference<>();

  private static String hangInRealTime() throws InterruptedException {
    Thread.sleep(60_000);
    return "too late";
  }

  @Test
  void anAsyncAttemptIsCutAtTheDeadlineAndItsInnerFutureCancelled() throws Exception {
    Stack<String> stack = Stack.<String>builder("Stock.async")
        .circuitBreaker("stock-async", b -> b.failureThreshold(1))
        .timeout(t -> t.duration("2s")).build(registry);
    CompletableFuture<String> inner = new CompletableFuture<>();
    CompletableFuture<String> future;
    try (Deadline.Scope scope = within(300)) {
      future = stack.callAsync(() -> inner);
    }
    clock.advance(Duration.ofMillis(299));
    assertFalse(future.isDone());
    clock.advance(Duration.ofMillis(1));
    assertInstanceOf(DeadlineExceededException.class, assertThrows(ExecutionException.class, future::get).getCause());
    assertTrue(inner.isCancelled());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("stock-async").state());
  }

  // ---- the waits of admission ----

  @Test
  void aTokenThatWouldComeAfterTheDeadlineIsGivenBackAndTheCallRefusedAtOnce() throws Exception {
    Stack<String> stack = Stack.<String>builder("Prices.price")
        .rateLimit("prices", l -> l.permits(1).per("1s").maxWait("5s")).build(registry);
    assertEquals("first", stack.call(() -> "first"));
    long start = clock.nanoTime();
    try (Deadline.Scope scope = within(300)) {
      assertThrows(DeadlineExceededException.class, () -> stack.call(() -> "never"));
    }
    assertEquals(start, clock.nanoTime(), "refused without waiting in vain");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, registry.rateLimiter("prices").availablePermits(), "the reserved token was given back");
  }

  @Test
  void anAsyncBulkheadWaitEndsAtTheDeadlineRatherThanAtItsMaxWait() {
    Stack<String> stack = Stack.<String>builder("Prices.bulk")
        .bulkhead("prices-bulk", b -> b.maxConcurrent(1).maxWait("5s")).build(registry);
    CompletableFuture<String> holding = stack.callAsync(CompletableFuture::new);
    CompletableFuture<String> waiting;
    try (Deadline.Scope scope = within(300)) {
      waiting = stack.callAsync(() -> CompletableFuture.completedFuture("late"));
    }
    clock.advance(Duration.ofMillis(299));
    assertFalse(waiting.isDone());
    clock.advance(Duration.ofMillis(1));
    assertTrue(waiting.isCompletedExceptionally());
    assertInstanceOf(DeadlineExceededException.class, assertThrows(ExecutionException.class, waiting::get).getCause());
    assertFalse(holding.isDone());
    assertEquals(1, registry.bulkhead("prices-bulk").inFlight(), "the waiter took nothing");
  }

  @Test
  void aSyncBulkheadWaitEndsAtTheDeadline() throws Exception {
    Stack<String> stack = Stack.<String>builder("Prices.syncBulk")
        .bulkhead("prices-sync", b -> b.maxConcurrent(1).maxWait("5s")).build(registry);
    CompletableFuture<Void> release = new CompletableFuture<>();
    Thread holder = new Thread(() -> {
      try {
        stack.call(() -> {
          release.get();
          return "held";
        });
      } catch (Exception ignored) {
        // released at the end of the test
      }
    });
    holder.start();
    while (registry.bulkhead("prices-sync").inFlight() == 0) {
      LockSupport.parkNanos(1_000_000);
    }
    AtomicReference<Throwable> waited = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try (Deadline.Scope scope = within(300)) {
        stack.call(() -> "late");
      } catch (Throwable ended) {
        waited.set(ended);
      }
    });
    waiter.start();
    while (waiter.getState() != Thread.State.WAITING && waiter.getState() != Thread.State.TIMED_WAITING) {
      LockSupport.parkNanos(1_000_000);
    }
    clock.advance(Duration.ofMillis(300));
    waiter.join(10_000);
    release.complete(null);
    holder.join(10_000);
    assertInstanceOf(DeadlineExceededException.class, waited.get());
    assertEquals(0, registry.bulkhead("prices-sync").inFlight());
  }

  // ---- the retry ----

  @Test
  void noBackoffStartsThatCouldNotEndBeforeTheDeadline() {
    Stack<String> stack = Stack.<String>builder("Recs.list")
        .retry(r -> r.maxAttempts(5).delay("200ms").multiplier(1.0).jitter(Retry.Jitter.NONE)).build(registry);
    AtomicInteger attempts = new AtomicInteger();
    long start = clock.nanoTime();
    IOException last;
    try (Deadline.Scope scope = within(300)) {
      last = assertThrows(IOException.class, () -> stack.call(() -> {
        throw new IOException("io" + attempts.incrementAndGet());
      }));
    }
    assertEquals(2, attempts.get(), "the third attempt would start at 400 ms, past the deadline");
    assertEquals("io2", last.getMessage(), "its last failure, as at maxDuration");
    assertEquals("io1", last.getSuppressed()[0].getMessage());
    assertEquals(Duration.ofMillis(200), Duration.ofNanos(clock.nanoTime() - start), "no backoff slept in vain");
    assertEquals("deadline", events("retry.exhausted").get(0).attributes().get("reason"));
  }

  @Test
  void anAsyncRetryStopsAtTheDeadlineToo() {
    Stack<String> stack = Stack.<String>builder("Recs.listAsync")
        .retry(r -> r.maxAttempts(5).delay("200ms").multiplier(1.0).jitter(Retry.Jitter.NONE)).build(registry);
    AtomicInteger attempts = new AtomicInteger();
    CompletableFuture<String> future;
    try (Deadline.Scope scope = within(300)) {
      future = stack.callAsync(() -> CompletableFuture.failedFuture(new IOException("io" + attempts.incrementAndGet())));
    }
    clock.advance(Duration.ofSeconds(5));
    assertEquals("io2", assertThrows(ExecutionException.class, future::get).getCause().getMessage());
    assertEquals(2, attempts.get());
  }

  // ---- what a call passes on ----

  @Test
  void aCallPassesItsTimeoutOnAsTheDeadlineOfTheCallsItMakes() throws Exception {
    Stack<String> inner = Stack.<String>builder("Inner.call").timeout(t -> t.duration("5s")).build(registry);
    Stack<String> outer = Stack.<String>builder("Outer.call").timeout(t -> t.duration("1s")).build(registry);
    AtomicReference<Deadline> seenInOuter = new AtomicReference<>();
    AtomicReference<Deadline> seenInInner = new AtomicReference<>();
    outer.call(() -> {
      seenInOuter.set(Deadline.current().orElseThrow());
      clock.advance(Duration.ofMillis(400));
      return inner.call(() -> {
        seenInInner.set(Deadline.current().orElseThrow());
        return "v";
      });
    });
    assertEquals(Duration.ofSeconds(1), seenInOuter.get().budget());
    assertEquals(seenInOuter.get().nanoTime(), seenInInner.get().nanoTime(), "the inner call kept the earlier bound");
    assertEquals(Duration.ofMillis(600), seenInInner.get().remaining());
    assertEquals(Optional.empty(), Deadline.current(), "nothing is left on the caller's thread");
  }

  @Test
  void aRetrysMaxDurationIsTheDeadlineOfTheWholeCall() throws Exception {
    Stack<String> stack = Stack.<String>builder("Whole.call")
        .retry(r -> r.maxAttempts(3).delay("100ms").jitter(Retry.Jitter.NONE).maxDuration("2s")).build(registry);
    List<Duration> remaining = new CopyOnWriteArrayList<>();
    AtomicInteger attempts = new AtomicInteger();
    stack.call(() -> {
      remaining.add(Deadline.current().orElseThrow().remaining());
      if (attempts.incrementAndGet() < 2) {
        throw new IOException("again");
      }
      return "v";
    });
    assertEquals(List.of(Duration.ofSeconds(2), Duration.ofMillis(1900)), remaining, "one deadline for every attempt");
  }

  @Test
  void theInnerCallsOfAnOuterTimeoutEndWithItAndOnlyTheOuterBreakerCountsIt() {
    Stack<String> inner = Stack.<String>builder("Inner.hang")
        .circuitBreaker("inner", b -> b.failureThreshold(1)).timeout(t -> t.duration("2s")).build(registry);
    Stack<String> outer = Stack.<String>builder("Outer.hang")
        .circuitBreaker("outer", b -> b.failureThreshold(1)).timeout(t -> t.duration("300ms")).build(registry);
    AtomicReference<Throwable> innerFailure = new AtomicReference<>();
    long start = clock.nanoTime();
    TimeoutExceededException outerFailure = assertThrows(TimeoutExceededException.class, () -> outer.call(() -> {
      try {
        return inner.call(this::hang);
      } catch (Exception failure) {
        innerFailure.set(failure);
        throw failure;
      }
    }));
    assertEquals(Duration.ofMillis(300), Duration.ofNanos(clock.nanoTime() - start));
    assertInstanceOf(DeadlineExceededException.class, innerFailure.get());
    assertFalse(outerFailure instanceof DeadlineExceededException, "the outer call's own timeout expired: " + outerFailure);
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("inner").state(), "the inner call ran out of its caller's time");
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("outer").state(), "the outer call's timeout is its own failure");
  }

  @Test
  void aCallThatMustFinishIgnoresItsCallersDeadlineAndHidesItFromTheCallsItMakes() throws Exception {
    Registry writes = registry(Map.of(), b -> b.deadline("Orders.place", d -> d.inherit(false)));
    Stack<String> place = Stack.<String>builder("Orders.place").retry(r -> r.maxAttempts(1)).build(writes);
    AtomicReference<Optional<Deadline>> seen = new AtomicReference<>();
    try (Deadline.Scope scope = within(100)) {
      clock.advance(Duration.ofMillis(200));
      assertEquals("placed", place.call(() -> {
        seen.set(Deadline.current());
        return "placed";
      }));
    }
    assertEquals(Optional.empty(), seen.get(), "the calls a write makes are not cut short by its caller's deadline");
  }

  @Test
  void switchedOffDeadlinesLeaveEveryCallAsItWas() throws Exception {
    Registry off = registry(Map.of("BRACE_DEADLINE_ENABLED", "false"), b -> {});
    Stack<String> stack = Stack.<String>builder("Off.call").timeout(t -> t.duration("1s")).build(off);
    AtomicReference<Optional<Deadline>> seen = new AtomicReference<>();
    try (Deadline.Scope scope = within(100)) {
      clock.advance(Duration.ofMillis(200));
      assertEquals("v", stack.call(() -> {
        seen.set(Deadline.current());
        return "v";
      }));
      assertSame(scope.deadline(), seen.get().orElseThrow(), "the call set no bound of its own");
    }
  }

  @Test
  void anAsyncCallsRetriesOnTheSchedulerRunUnderTheCallersDeadline() {
    Stack<String> stack = Stack.<String>builder("Async.retry")
        .retry(r -> r.maxAttempts(2).delay("100ms").jitter(Retry.Jitter.NONE)).build(registry);
    List<Duration> remaining = new CopyOnWriteArrayList<>();
    CompletableFuture<String> future;
    try (Deadline.Scope scope = within(1000)) {
      future = stack.callAsync(() -> {
        remaining.add(Deadline.current().orElseThrow().remaining());
        return remaining.size() < 2
            ? CompletableFuture.failedFuture(new IOException("again"))
            : CompletableFuture.completedFuture("v");
      });
    }
    assertNull(Deadline.current().orElse(null));
    clock.advance(Duration.ofMillis(100));
    assertEquals("v", future.join());
    assertEquals(List.of(Duration.ofMillis(1000), Duration.ofMillis(900)), remaining, "the retry on the scheduler saw it");
  }

  @Test
  void anAsyncAttemptThatWaitedPassesItsBoundOnOnTheThreadThatRunsIt() throws Exception {
    Stack<String> stack = Stack.<String>builder("Async.waited")
        .rateLimit("waited", l -> l.permits(1).per("1s").maxWait("5s"))
        .timeout(t -> t.duration("2s"))
        .build(registry);
    assertEquals("first", stack.call(() -> "first"));
    List<Optional<Deadline>> seen = new CopyOnWriteArrayList<>();
    CompletableFuture<String> future = stack.callAsync(() -> {
      seen.add(Deadline.current());
      return CompletableFuture.completedFuture("second");
    });
    assertTrue(seen.isEmpty(), "the attempt waits for its token");
    // The token arrives on another thread: the attempt's ticket, begun on this one, must pass the
    // attempt's bound on where the attempt runs, not to this thread's deadline.
    CompletableFuture.runAsync(() -> clock.advance(Duration.ofSeconds(1))).get(5, TimeUnit.SECONDS);
    assertEquals("second", future.get(5, TimeUnit.SECONDS));
    assertEquals(1, seen.size());
    assertEquals(Duration.ofSeconds(2), seen.get(0).orElseThrow(() -> new AssertionError("no bound passed on")).remaining());
    assertNull(Deadline.current().orElse(null), "nothing was left on the caller's thread");
  }

  @Test
  void aCallAfterOneUnderADeadlinePassesNoStaleBoundOnToTheCallsItMakes() throws Exception {
    Stack<String> stack = Stack.<String>builder("Plain.after").circuitBreaker("after", b -> b.failureThreshold(5)).build(registry);
    Callable<String> seen = () -> Deadline.current().map(d -> d.remaining().toString()).orElse("none");
    try (Deadline.Scope scope = within(1000)) {
      assertEquals("PT1S", stack.call(seen), "the first call's attempt passes its caller's deadline on");
    }
    // The same thread's frame and ticket serve the next call, which is under no deadline at all.
    assertEquals("none", stack.call(seen));
  }
}
