package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A synchronous call's first attempt made without waiting, without a frame, and every way it leaves that
 * path: it must behave exactly as the staged pipeline does. Each case is a moment the attempt
 * cannot finish without waiting — the breaker not closed, the token still to come, the bulkhead full, the
 * delegate failing, recording the result failing, a deadline on the thread — and checks that what
 * it took is neither lost nor taken twice and that nothing is reported twice.
 */
class AttemptWithoutWaitingTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).scheduler(clock.scheduler()).build();
  private final List<Event> events = new CopyOnWriteArrayList<>();

  AttemptWithoutWaitingTest() {
    registry.subscribeForMetrics(events::add);
  }

  private long count(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).count();
  }

  /**
   * @return a call on another thread that has taken the stack's permit and holds it, in its
   *     delegate, until {@code leave} opens; it then answers "held"
   */
  private static CompletableFuture<String> holdingThePermit(Stack<String> stack, CountDownLatch leave) throws InterruptedException {
    CountDownLatch inside = new CountDownLatch(1);
    CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> {
      try {
        return stack.call(() -> {
          inside.countDown();
          leave.await();
          return "held";
        });
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    assertTrue(inside.await(10, TimeUnit.SECONDS));
    return holder;
  }

  @Test
  void aSuccessTakesOneTokenAndGivesItsPermitBack() throws Exception {
    Stack<String> stack = Stack.<String>builder("NoWait.ok")
        .retry(r -> r.maxAttempts(3).delay("0ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker("no-wait-ok", b -> b.failureThreshold(5))
        .rateLimit("no-wait-ok", l -> l.permits(2).per("1s").burst(2).maxWait("0ms"))
        .bulkhead("no-wait-ok", b -> b.maxConcurrent(1))
        .build(registry);

    assertEquals("ok", stack.call(() -> "ok"));
    assertEquals("ok", stack.call(() -> "ok"));

    // Two tokens of a burst of two, one per call: a third call finds none.
    assertThrows(RateLimitedException.class, () -> stack.call(() -> "third"));
    assertEquals(1, registry.bulkhead("no-wait-ok").available());
    assertEquals(2, count("call.succeeded"));
  }

  @Test
  void aCircuitNotClosedRefusesOnceAsTheStagedWayDoes() {
    Stack<String> stack = Stack.<String>builder("NoWait.open")
        .circuitBreaker("no-wait-open", b -> b.failureThreshold(1).resetTimeout("10s"))
        .build(registry);
    IOException down = new IOException("down");

    assertSame(down, assertThrows(IOException.class, () -> stack.call(() -> {
      throw down;
    })));
    AtomicInteger reached = new AtomicInteger();
    assertThrows(CircuitOpenException.class, () -> stack.call(() -> "never " + reached.incrementAndGet()));

    assertEquals(0, reached.get());
    assertEquals(1, count("circuit.rejected"), "the refusal is reported once");
  }

  @Test
  void aTokenStillToComeIsReservedOnceAndWaitedFor() throws Exception {
    Stack<String> stack = Stack.<String>builder("NoWait.wait")
        .rateLimit("no-wait-wait", l -> l.permits(1).per("1s").burst(1).maxWait("5s"))
        .build(registry);
    assertEquals("first", stack.call(() -> "first"));
    long before = clock.nanoTime();

    assertEquals("second", stack.call(() -> "second"));

    // One reservation, one second: had the attempt made without waiting reserved a token before going
    // the staged way, the call would have waited for the token after it.
    assertEquals(Duration.ofSeconds(1).toNanos(), clock.nanoTime() - before);
  }

  @Test
  void aFullBulkheadWithoutAWaitRefusesAndItsTokenStaysTakenAsTheStagedWayLeavesIt() throws Exception {
    Stack<String> stack = Stack.<String>builder("NoWait.full")
        .circuitBreaker("no-wait-full", b -> b.failureThreshold(1))
        .rateLimit("no-wait-full", l -> l.permits(2).per("1s").burst(2).maxWait("0ms"))
        .bulkhead("no-wait-full", b -> b.maxConcurrent(1))
        .build(registry);
    CountDownLatch leave = new CountDownLatch(1);
    CompletableFuture<String> holder = holdingThePermit(stack, leave);

    assertThrows(BulkheadFullException.class, () -> stack.call(() -> "refused"));

    leave.countDown();
    assertEquals("held", holder.get(10, TimeUnit.SECONDS));
    // Both tokens are gone (the refused attempt's too), the breaker was told nothing of the
    // refusal (a failure would have opened it), and the permit came back.
    assertThrows(RateLimitedException.class, () -> stack.call(() -> "no token"));
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("no-wait-full").state());
    assertEquals(1, registry.bulkhead("no-wait-full").available());
    assertEquals(1, count("bulkhead.rejected"));
  }

  @Test
  void aFullBulkheadThatFreesAPermitWithinItsWaitAdmitsTheAttemptItHandedOver() throws Exception {
    Registry real = Registry.builder().build();
    Stack<String> stack = Stack.<String>builder("NoWait.waits")
        .rateLimit("no-wait-waits", l -> l.permits(2).per("1h").burst(2).maxWait("0ms"))
        .bulkhead("no-wait-waits", b -> b.maxConcurrent(1).maxWait("30s"))
        .build(real);
    CountDownLatch leave = new CountDownLatch(1);
    CompletableFuture<String> holder = holdingThePermit(stack, leave);
    Thread[] waiter = new Thread[1];
    CompletableFuture<String> waiting = new CompletableFuture<>();
    waiter[0] = new Thread(() -> {
      try {
        waiting.complete(stack.call(() -> "after the wait"));
      } catch (Throwable t) {
        waiting.completeExceptionally(t);
      }
    });
    waiter[0].start();
    // Parked on the bulkhead, holding its token: only then does the holder leave.
    while (waiter[0].getState() != Thread.State.TIMED_WAITING && waiter[0].getState() != Thread.State.WAITING) {
      assertTrue(waiter[0].isAlive(), "the second call ended before it waited");
      Thread.onSpinWait();
    }
    leave.countDown();

    assertEquals("after the wait", waiting.get(10, TimeUnit.SECONDS));
    assertEquals("held", holder.get(10, TimeUnit.SECONDS));
    // Two tokens for two calls: the one that waited did not take another after its wait.
    assertThrows(RateLimitedException.class, () -> stack.call(() -> "no token"));
    assertEquals(1, real.bulkhead("no-wait-waits").available());
  }

  @Test
  void aFailedAttemptIsRecordedOnceAndTheRetryGoesOn() throws Exception {
    Stack<String> stack = Stack.<String>builder("NoWait.retried")
        .retry(r -> r.maxAttempts(3).delay("0ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker("no-wait-retried", b -> b.failureThreshold(10))
        .bulkhead("no-wait-retried", b -> b.maxConcurrent(1))
        .build(registry);
    AtomicInteger attempts = new AtomicInteger();

    assertEquals("third", stack.call(() -> {
      if (attempts.incrementAndGet() < 3) {
        throw new IOException("down " + attempts.get());
      }
      return "third";
    }));

    assertEquals(3, attempts.get());
    assertEquals(2, count("call.failed"));
    assertEquals(1, count("call.succeeded"));
    assertEquals(2, count("retry.attempt_failed"));
    assertEquals(1, registry.bulkhead("no-wait-retried").available());
  }

  @Test
  void aFailureTheRetryEndsWithReachesTheFallbackWithTheEarlierOnesAttached() throws Exception {
    Stack<String> stack = Stack.<String>builder("NoWait.fallback")
        .retry(r -> r.maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE))
        .fallback(f -> f.on(IOException.class), cause -> "answered " + cause.getMessage() + " after "
            + cause.getSuppressed()[0].getMessage())
        .build(registry);
    AtomicInteger attempts = new AtomicInteger();

    assertEquals("answered down 2 after down 1", stack.call(() -> {
      throw new IOException("down " + attempts.incrementAndGet());
    }));
  }

  @Test
  void aResultTheBreakerCountsAsAFailureFailsTheAttemptThatWasMadeWithoutWaiting() throws Exception {
    IllegalStateException judged = new IllegalStateException("the predicate itself failed");
    Stack<String> stack = Stack.<String>builder("NoWait.predicate")
        .retry(r -> r.maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker("no-wait-predicate", b -> b.failureThreshold(5).onResult(result -> {
          if ("bad".equals(result)) {
            throw judged;
          }
          return false;
        }))
        .bulkhead("no-wait-predicate", b -> b.maxConcurrent(1))
        .build(registry);
    AtomicInteger attempts = new AtomicInteger();

    assertEquals("good", stack.call(() -> attempts.incrementAndGet() == 1 ? "bad" : "good"));
    assertEquals("good", stack.callAsync(() -> CompletableFuture.completedFuture(attempts.incrementAndGet() == 3 ? "bad" : "good"))
        .get(10, TimeUnit.SECONDS));

    assertEquals(4, attempts.get(), "the predicate's failure is the attempt's, and the retry tries again");
    assertEquals(1, registry.bulkhead("no-wait-predicate").available());
    // Its outcome was recorded once, as the breaker judged it: never again as a failure of its own.
    assertEquals(0, count("call.failed"));
    assertEquals(2, count("call.succeeded"));
  }

  @Test
  void underADeadlineTheAttemptGoesTheStagedWayAndIsBoundByIt() {
    Stack<String> stack = Stack.<String>builder("NoWait.deadline")
        .circuitBreaker("no-wait-deadline", b -> b.failureThreshold(5))
        .build(registry);
    AtomicInteger reached = new AtomicInteger();
    try (Deadline.Scope scope = Deadline.open(Duration.ofSeconds(1), clock)) {
      clock.advance(Duration.ofSeconds(2));

      assertThrows(DeadlineExceededException.class, () -> stack.call(() -> "late " + reached.incrementAndGet()));
    }
    assertEquals(0, reached.get(), "a deadline already passed refuses the attempt before the delegate");
  }

  @Test
  void anAsynchronousStageStillInFlightHoldsItsPermitUntilItCompletes() throws Exception {
    Stack<String> stack = Stack.<String>builder("NoWait.inFlight")
        .circuitBreaker("no-wait-in-flight", b -> b.failureThreshold(1))
        .bulkhead("no-wait-in-flight", b -> b.maxConcurrent(1))
        .build(registry);
    CompletableFuture<String> dependency = new CompletableFuture<>();

    CompletableFuture<String> first = stack.callAsync(() -> dependency);
    CompletableFuture<String> second = stack.callAsync(() -> CompletableFuture.completedFuture("second"));

    assertTrue(!first.isDone(), "the call follows the dependency's stage");
    assertTrue(second.isCompletedExceptionally(), "the first attempt still holds the one permit");
    dependency.complete("first");
    assertEquals("first", first.get(10, TimeUnit.SECONDS));
    assertEquals("third", stack.callAsync(() -> CompletableFuture.completedFuture("third")).get(10, TimeUnit.SECONDS));
    assertEquals(1, registry.bulkhead("no-wait-in-flight").available());
    assertEquals(2, count("call.succeeded"));
  }

  @Test
  void anAsynchronousAttemptFailedAlreadyOrWithoutAStageIsRecordedOnceAndRetried() throws Exception {
    Stack<String> stack = Stack.<String>builder("NoWait.asyncRetried")
        .retry(r -> r.maxAttempts(3).delay("0ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker("no-wait-async-retried", b -> b.failureThreshold(10))
        .build(registry);
    AtomicInteger attempts = new AtomicInteger();

    CompletableFuture<String> call = stack.callAsync(() -> switch (attempts.incrementAndGet()) {
      case 1 -> CompletableFuture.failedFuture(new IOException("down"));
      case 2 -> null;
      default -> CompletableFuture.completedFuture("third");
    });

    assertEquals("third", call.get(10, TimeUnit.SECONDS));
    assertEquals(3, attempts.get());
    assertEquals(2, count("call.failed"));
    assertEquals(1, count("call.succeeded"));
  }

  @Test
  void anAsynchronousSuccessWithoutWaitingTakesOneToken() throws Exception {
    Stack<String> stack = Stack.<String>builder("NoWait.asyncOk")
        .rateLimit("no-wait-async-ok", l -> l.permits(1).per("1s").burst(1).maxWait("0ms"))
        .build(registry);

    assertEquals("ok", stack.callAsync(() -> CompletableFuture.completedFuture("ok")).getNow("not yet"));

    CompletableFuture<String> refused = stack.callAsync(() -> CompletableFuture.completedFuture("no token"));
    assertTrue(refused.isCompletedExceptionally());
    assertThrows(java.util.concurrent.ExecutionException.class, refused::get);
  }

  @Test
  void aMeteredAttemptMadeWithoutWaitingIsTimedFromItsAdmissionAndTheCallFromItsStart() throws Exception {
    RecordedMetrics metrics = new RecordedMetrics();
    registry.bindMetrics(metrics);
    Stack<String> breakerOnly = Stack.<String>builder("NoWait.timed")
        .circuitBreaker("no-wait-timed", b -> b.failureThreshold(5))
        .build(registry);
    Stack<String> withLimiter = Stack.<String>builder("NoWait.timedLimited")
        .rateLimit("no-wait-timed-limited", l -> l.permits(100).per("1s"))
        .build(registry);

    assertEquals("ok", breakerOnly.call(() -> {
      clock.advance(Duration.ofMillis(5));
      return "ok";
    }));
    assertEquals("ok", withLimiter.call(() -> {
      clock.advance(Duration.ofMillis(7));
      return "ok";
    }));

    // Nothing waits before the attempt, so each is as long as its call: 5 ms, then 7 ms.
    assertEquals(List.of("NoWait.timed attemptSucceeded 5000000", "NoWait.timed succeeded 5000000"),
        metrics.starting("NoWait.timed "));
    assertEquals(List.of("NoWait.timedLimited attemptSucceeded 7000000", "NoWait.timedLimited succeeded 7000000"),
        metrics.starting("NoWait.timedLimited "));
  }

  /** An adaptive limiter eases back by its {@code increase} on each success, the ones made without waiting too. */
  @Test
  void anAdaptiveLimitersRateComesBackThroughSuccessesMadeWithoutWaiting() throws Exception {
    Stack<String> stack = Stack.<String>builder("NoWait.adaptive")
        .retry(r -> r.maxAttempts(1))
        .rateLimit("no-wait-adaptive", l -> l.permits(100).per("1s").adaptive(true).increase(5))
        .build(registry);
    RateLimiterHandle limiter = registry.rateLimiter("no-wait-adaptive");

    assertThrows(RateLimitedException.class, () -> stack.call(() -> {
      throw new RateLimitedException("downstream", Duration.ofMillis(100), null);
    }));
    assertEquals(50.0, limiter.currentRate(), "a throttled attempt halves the rate");
    clock.advance(Duration.ofSeconds(1));
    assertEquals("ok", stack.call(() -> "ok"));
    assertEquals("ok", stack.call(() -> "ok"));

    assertEquals(60.0, limiter.currentRate(), "each success made without waiting raised it by 5");
  }

  /**
   * A binding that lands after a call began but before its attempt was admitted: the attempt is
   * timed and reported, the call's end is not (its start was never read), as for a staged call.
   */
  @Test
  void aBindingBetweenTheCallsStartAndItsAdmissionReportsTheAttemptAlone() throws Exception {
    RecordedMetrics metrics = new RecordedMetrics();
    AtomicBoolean armed = new AtomicBoolean();
    Registry[] bindOnFirstRead = new Registry[1];
    TimeSource bindingClock = new TimeSource() {
      @Override
      public long nanoTime() {
        if (armed.compareAndSet(true, false)) {
          bindOnFirstRead[0].bindMetrics(metrics);
        }
        return clock.nanoTime();
      }

      @Override
      public void sleep(Duration duration) throws InterruptedException {
        clock.sleep(duration);
      }
    };
    Registry unmetered = Registry.builder().timeSource(bindingClock).scheduler(clock.scheduler()).build();
    bindOnFirstRead[0] = unmetered;
    Stack<String> stack = Stack.<String>builder("NoWait.boundLate")
        .retry(r -> r.maxAttempts(2))
        .rateLimit("no-wait-bound-late", l -> l.permits(100).per("1s"))
        .build(unmetered);

    // The call's start reads no clock while nothing is bound: the limiter's admission is the first read.
    armed.set(true);
    assertEquals("ok", stack.call(() -> {
      clock.advance(Duration.ofMillis(4));
      return "ok";
    }));

    assertEquals(List.of("NoWait.boundLate attemptSucceeded 4000000"), metrics.starting("NoWait.boundLate "));
  }

  /**
   * A frame's ticket is reused by every call its thread makes at that depth: a call that began at
   * once and then borrowed the frame must clear what an earlier call's {@code maxDuration} left in
   * it, or its later attempts would pass that call's end on as a deadline.
   */
  @Test
  void aCallThatHandsOverPassesOnNoDeadlineLeftByTheThreadsPreviousCall() throws Exception {
    // Bound metrics time every call from its start, which a call with no maxDuration must not pass on.
    registry.bindMetrics(new RecordedMetrics());
    Stack<String> bounded = Stack.<String>builder("NoWait.bounded")
        .retry(r -> r.maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE).maxDuration("10s"))
        .build(registry);
    assertEquals("ok", bounded.call(() -> "ok"));
    Stack<String> plain = Stack.<String>builder("NoWait.unbounded")
        .retry(r -> r.maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE))
        .build(registry);
    AtomicInteger attempts = new AtomicInteger();
    List<Boolean> underADeadline = new CopyOnWriteArrayList<>();
    Callable<String> failsOnce = () -> {
      underADeadline.add(Deadline.current().isPresent());
      if (attempts.incrementAndGet() == 1) {
        throw new IOException("down");
      }
      return "second";
    };

    assertEquals("second", plain.call(failsOnce));
    attempts.set(0);
    assertEquals("ok", bounded.call(() -> "ok"));
    assertEquals("second", plain.callAsync(() -> {
      try {
        return CompletableFuture.completedFuture(failsOnce.call());
      } catch (Exception e) {
        return CompletableFuture.failedFuture(e);
      }
    }).get(10, TimeUnit.SECONDS));

    assertEquals(List.of(false, false, false, false), underADeadline);
  }

  @Test
  void anAsynchronousCallThatFinishesWithoutWaitingTheStagedWayEndsOnceForMetrics() throws Exception {
    RecordedMetrics metrics = new RecordedMetrics();
    registry.bindMetrics(metrics);
    // A maxDuration keeps the call from the attempt made without waiting: the frame's own fast path ends it.
    Stack<String> bounded = Stack.<String>builder("NoWait.asyncBounded")
        .retry(r -> r.maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE).maxDuration("10s"))
        .build(registry);

    assertEquals("ok", bounded.callAsync(() -> {
      clock.advance(Duration.ofMillis(3));
      return CompletableFuture.completedFuture("ok");
    }).get(10, TimeUnit.SECONDS));

    assertEquals(List.of("NoWait.asyncBounded attemptSucceeded 3000000", "NoWait.asyncBounded succeeded 3000000"),
        metrics.starting("NoWait.asyncBounded "));
  }
}
