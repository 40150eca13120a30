package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.LambdaCalls;

import dev.brace.runtime.support.ResilientCall;
import static dev.brace.runtime.internal.sequence.AsyncFixture.CALL;
import static dev.brace.runtime.internal.sequence.AsyncFixture.failureOf;
import static dev.brace.runtime.internal.sequence.AsyncFixture.onAnotherThread;
import static dev.brace.runtime.internal.sequence.AsyncFixture.retry;
import static dev.brace.runtime.internal.sequence.AsyncFixture.valueOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.TimeoutConfig;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Breaker, limiter, bulkhead and timeout on the async path, and the order guarantees. */
class AsyncStackTest {
  private final AsyncFixture fixture = new AsyncFixture();
  private final AsyncFixture.Delegate delegate = fixture.delegate;

  private static CircuitBreakerConfig.Builder breaker(int failureThreshold) {
    return CircuitBreakerConfig.builder("cb").failureThreshold(failureThreshold).resetTimeout("10s");
  }

  private static RateLimitConfig.Builder limiter(String maxWait) {
    return RateLimitConfig.builder("rl").permits(1).per("1s").burst(1).maxWait(maxWait);
  }

  private static BulkheadConfig.Builder bulkhead(String maxWait) {
    return BulkheadConfig.builder("bh").maxConcurrent(1).maxWait(maxWait);
  }

  private CircuitState breakerState() {
    return fixture.registry.circuitBreaker("cb").state();
  }

  private int inFlight() {
    return fixture.registry.bulkhead("bh").inFlight();
  }

  // ---- circuit breaker ----

  @Test
  void theBreakerRecordsWhenTheFutureCompletesAndThenRefusesThroughTheFuture() {
    ResilientCall guard = fixture.resolve(call -> call.with(breaker(1)));
    CompletableFuture<String> first = LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(CircuitState.CLOSED, breakerState(), "nothing recorded while in flight");

    delegate.last().completeExceptionally(new IOException());
    assertInstanceOf(IOException.class, failureOf(first));
    assertEquals(CircuitState.OPEN, breakerState());

    CompletableFuture<String> refused = LambdaCalls.callAsync(guard, delegate, null);
    assertInstanceOf(CircuitOpenException.class, failureOf(refused));
    assertEquals(1, delegate.attempts(), "the refused call never reached the delegate");
  }

  @Test
  void theBreakerCountsASuccessfulFutureAsSuccess() {
    ResilientCall guard = fixture.resolve(call -> call.with(breaker(2)));
    LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException());
    LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().complete("ok");
    LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException());

    assertEquals(CircuitState.CLOSED, breakerState(), "the success in between reset the count");
  }

  @Test
  void aFallbackAnswersTheBreakersRefusal() {
    ResilientCall guard = fixture.resolve(call -> call.with(breaker(1)).with(FallbackConfig.builder(CALL)));
    LambdaCalls.callAsync(guard, delegate, failure -> CompletableFuture.completedFuture("fallback"));
    delegate.last().completeExceptionally(new IOException());

    CompletableFuture<String> refused =
        LambdaCalls.callAsync(guard, delegate, failure -> CompletableFuture.completedFuture(failure.getClass().getSimpleName()));

    assertEquals("CircuitOpenException", valueOf(refused));
  }

  // ---- rate limiter ----

  @Test
  void theLimitersRefusalCompletesTheFuture() {
    ResilientCall guard = fixture.resolve(call -> call.with(limiter("0s")));
    LambdaCalls.callAsync(guard, delegate, null).complete("ignored");

    CompletableFuture<String> refused = LambdaCalls.callAsync(guard, delegate, null);

    assertInstanceOf(RateLimitedException.class, failureOf(refused));
    assertEquals(1, delegate.attempts());
  }

  @Test
  void theLimitersWaitIsAScheduledDelay() {
    ResilientCall guard = fixture.resolve(call -> call.with(limiter("1s")));
    LambdaCalls.callAsync(guard, delegate, null);

    CompletableFuture<String> waiting = LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(1, delegate.attempts(), "the second token comes after 1 s");
    fixture.advance("999");
    assertEquals(1, delegate.attempts());
    fixture.advance("1");
    assertEquals(2, delegate.attempts());
    delegate.last().complete("ok");
    assertEquals("ok", valueOf(waiting));
    assertEquals(1, fixture.eventCount("ratelimit.waited"), "the wait is reported as on the sync path");
    assertEquals(1000L, fixture.events.stream().filter(e -> e.kind().equals("ratelimit.waited"))
        .findFirst().orElseThrow().attributes().get("waited_ms"));
  }

  @Test
  void cancellingWhileWaitingForATokenGivesItBack() {
    ResilientCall guard = fixture.resolve(call -> call.with(limiter("2s")));
    LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> waiting = LambdaCalls.callAsync(guard, delegate, null);

    waiting.cancel(true);
    fixture.advance("1000");
    LambdaCalls.callAsync(guard, delegate, null);

    assertEquals(2, delegate.attempts(), "the cancelled caller's token went to the next one, at 1 s");
  }

  @Test
  void aProbeTheLimiterRefusesFreesTheHalfOpenBreakersProbeSlot() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(breaker(1))
        .with(RateLimitConfig.builder("rl").permits(1).per("20s").burst(1).maxWait("0s")));
    LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException());
    fixture.advance("10000");

    CompletableFuture<String> probe = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> next = LambdaCalls.callAsync(guard, delegate, null);

    assertInstanceOf(RateLimitedException.class, failureOf(probe));
    assertInstanceOf(RateLimitedException.class, failureOf(next),
        "admitted as the probe again: the refused one gave its slot back");
    assertEquals(CircuitState.HALF_OPEN, breakerState());
  }

  // ---- bulkhead ----

  @Test
  void theBulkheadPermitIsHeldUntilTheFutureCompletes() {
    ResilientCall guard = fixture.resolve(call -> call.with(bulkhead("0s")));
    CompletableFuture<String> first = LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(1, inFlight());

    CompletableFuture<String> refused = LambdaCalls.callAsync(guard, delegate, null);
    assertInstanceOf(BulkheadFullException.class, failureOf(refused));
    assertEquals(1, fixture.eventCount("bulkhead.rejected"));

    delegate.last().complete("ok");
    assertEquals("ok", valueOf(first));
    assertEquals(0, inFlight());
  }

  @Test
  void withMaxWaitTheBulkheadIsPolledUntilAPermitFrees() {
    ResilientCall guard = fixture.resolve(call -> call.with(bulkhead("50ms")));
    LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> second = LambdaCalls.callAsync(guard, delegate, null);
    assertFalse(second.isDone());

    fixture.advance("20");
    delegate.started.get(0).complete("first");
    fixture.advance("10");

    assertEquals(2, delegate.attempts(), "started on a poll after the permit came free");
    assertEquals(1, inFlight());
  }

  @Test
  void aFullBulkheadIsPolledInTenthsOfMaxWaitSoAFreedPermitIsTakenSoon() {
    ResilientCall guard = fixture.resolve(call -> call.with(bulkhead("20ms")));
    LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> second = LambdaCalls.callAsync(guard, delegate, null);

    fixture.advance("10");
    delegate.started.get(0).complete("first");
    fixture.advance("2");

    assertEquals(2, delegate.attempts(), "looked again 2 ms later, a tenth of maxWait");
    assertFalse(second.isDone());
  }

  @Test
  void withMaxWaitTheBulkheadRefusesWhenNoPermitFreesInTime() {
    ResilientCall guard = fixture.resolve(call -> call.with(bulkhead("50ms")));
    LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> second = LambdaCalls.callAsync(guard, delegate, null);

    fixture.advance("49");
    assertFalse(second.isDone());
    fixture.advance("1");

    assertInstanceOf(BulkheadFullException.class, failureOf(second));
    assertEquals(1, delegate.attempts());
  }

  // ---- timeout ----

  @Test
  void theTimeoutCompletesTheAttemptAtTheDeadlineAndCancelsTheInnerFuture() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(TimeoutConfig.builder(CALL).duration("1s"))
        .with(breaker(1))
        .with(bulkhead("0s")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);

    fixture.advance("999");
    assertFalse(result.isDone());
    fixture.advance("1");

    Throwable failure = failureOf(result);
    assertInstanceOf(TimeoutExceededException.class, failure);
    assertEquals(CALL, ((TimeoutExceededException) failure).instance());
    assertTrue(delegate.last().isCancelled());
    assertEquals(1, fixture.eventCount("timeout.exceeded"));
    assertEquals(CircuitState.OPEN, breakerState(), "an expired attempt is a counted failure");
    assertEquals(0, inFlight());
  }

  @Test
  void anAttemptThatFinishesInTimeCancelsItsDeadline() {
    ResilientCall guard = fixture.resolve(call -> call.with(TimeoutConfig.builder(CALL).duration("1s")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().complete("ok");

    fixture.advance("5000");

    assertEquals("ok", valueOf(result));
    assertEquals(0, fixture.eventCount("timeout.exceeded"));
  }

  @Test
  void eachRetriedAttemptGetsItsOwnDeadline() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(TimeoutConfig.builder(CALL).duration("1s")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);

    fixture.advance("1000");
    assertTrue(delegate.started.get(0).isCancelled());
    fixture.advance("100");
    assertEquals(2, delegate.attempts());
    fixture.advance("999");
    assertFalse(delegate.last().isDone(), "the second deadline counts from the second attempt");
    delegate.last().complete("ok");

    assertEquals("ok", valueOf(result));
  }

  // ---- steps on different threads ----

  @Test
  void retriesAndDeadlinesOnTheSchedulerLeaveTheCallToOtherThreads() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(retry())
        .with(breaker(5))
        .with(RateLimitConfig.builder("rl").permits(1000).per("1s"))
        .with(bulkhead("0s"))
        .with(TimeoutConfig.builder(CALL).duration("1s")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);

    CompletableFuture<String> first = delegate.last();
    onAnotherThread(() -> first.completeExceptionally(new IOException("first")));
    fixture.advance("100");
    assertEquals(2, delegate.attempts());
    fixture.advance("1000");
    assertTrue(delegate.last().isCancelled(), "the second attempt expired on this thread");
    onAnotherThread(() -> result.cancel(true));

    fixture.advance("10000");
    assertTrue(result.isCancelled());
    assertEquals(2, delegate.attempts(), "the backoff after the deadline was cancelled");
    assertEquals(0, inFlight());
  }

  @Test
  void waitsForATokenAndAPermitOnTheSchedulerLeaveTheCallToOtherThreads() {
    ResilientCall guard = fixture.resolve(call -> call.with(breaker(5)).with(limiter("2s")).with(bulkhead("50ms")));
    CompletableFuture<String> holder = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> waiting = LambdaCalls.callAsync(guard, delegate, null);

    fixture.advance("1000");
    assertEquals(1, delegate.attempts(), "the token came; the permit is still held");
    CompletableFuture<String> held = delegate.last();
    onAnotherThread(() -> held.complete("first"));
    fixture.advance("5");
    assertEquals(2, delegate.attempts());
    CompletableFuture<String> second = delegate.last();
    onAnotherThread(() -> second.complete("second"));

    assertEquals("first", valueOf(holder));
    assertEquals("second", valueOf(waiting));
    assertEquals(0, inFlight());
  }

  @Test
  void aFirstAttemptHandedOverByTheCallersThreadCanEndOnAnother() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(breaker(5)).with(bulkhead("0s").maxConcurrent(2)));
    AtomicInteger attempts = new AtomicInteger();
    CompletableFuture<String> pending = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> threw = LambdaCalls.callAsync(guard, () -> {
      if (attempts.incrementAndGet() == 1) {
        throw new IOException("thrown");
      }
      return CompletableFuture.completedFuture("never");
    }, null);

    CompletableFuture<String> inner = delegate.last();
    onAnotherThread(() -> inner.complete("ok"));
    onAnotherThread(() -> threw.cancel(true));

    assertEquals("ok", valueOf(pending));
    assertTrue(threw.isCancelled());
    fixture.advance("1000");
    assertEquals(1, attempts.get(), "the retry of the call that threw was cancelled");
    assertEquals(0, inFlight());
  }

  @Test
  void aFallbackStartedOnOneThreadCanBeCancelledFromAnother() {
    ResilientCall guard = fixture.resolve(call -> call.with(FallbackConfig.builder(CALL)));
    CompletableFuture<String> answer = new CompletableFuture<>();
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, failure -> answer);
    delegate.last().completeExceptionally(new IOException());

    onAnotherThread(() -> result.cancel(true));

    assertTrue(answer.isCancelled());
  }

  // ---- order guarantees ----

  @Test
  void theWrappersOwnRefusalIsNeitherRetriedNorRecorded() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(breaker(1)).with(bulkhead("0s")));
    LambdaCalls.callAsync(guard, delegate, null);

    CompletableFuture<String> refused = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("1000");

    assertInstanceOf(BulkheadFullException.class, failureOf(refused));
    assertEquals(1, delegate.attempts(), "no retry of the refusal");
    assertEquals(CircuitState.CLOSED, breakerState(), "the refusal is not recorded");
  }

  @Test
  void aRetryReEntersTheBreakerAndEndsWithItsRefusal() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(breaker(2)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    IOException first = new IOException("first");
    IOException second = new IOException("second");

    delegate.last().completeExceptionally(first);
    fixture.advance("100");
    delegate.last().completeExceptionally(second);
    fixture.advance("100");

    Throwable failure = failureOf(result);
    assertInstanceOf(CircuitOpenException.class, failure);
    assertArrayEquals(new Throwable[] {first, second}, failure.getSuppressed());
    assertEquals(2, delegate.attempts());
  }

  @Test
  void aRetryTakesAFreshTokenAndAFreshPermit() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(limiter("1s")).with(bulkhead("0s")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(1, inFlight());

    delegate.last().completeExceptionally(new IOException());
    assertEquals(0, inFlight(), "the permit is returned between attempts");
    fixture.advance("100");
    assertEquals(1, delegate.attempts(), "the retry waits for its own token, due at 1 s");
    fixture.advance("900");
    assertEquals(2, delegate.attempts());
    assertEquals(1, inFlight());
    delegate.last().complete("ok");

    assertEquals("ok", valueOf(result));
    assertEquals(0, inFlight());
  }

  @Test
  void anErrorReleasesEveryPermitWithoutARecord() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(breaker(1)).with(bulkhead("0s")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    StackOverflowError error = new StackOverflowError();

    delegate.last().completeExceptionally(error);

    assertSame(error, failureOf(result));
    assertEquals(0, inFlight());
    assertEquals(CircuitState.CLOSED, breakerState());
    assertEquals(1, delegate.attempts());
  }

  // ---- cancellation ----

  @Test
  void cancellingTheCallCancelsTheAttemptAndReleasesItsPermitsWithoutAnOutcome() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(retry())
        .with(breaker(1))
        .with(bulkhead("0s"))
        .with(TimeoutConfig.builder(CALL).duration("1s")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> inner = delegate.last();

    assertTrue(result.cancel(true));

    assertTrue(inner.isCancelled());
    assertEquals(0, inFlight());
    assertEquals(CircuitState.CLOSED, breakerState());
    fixture.advance("10000");
    assertEquals(1, delegate.attempts(), "no further attempt");
    assertEquals(0, fixture.eventCount("timeout.exceeded"), "the deadline was cancelled too");
    assertEquals(0, fixture.eventCount("retry.attempt_failed"));
  }

  @Test
  void cancellingAHalfOpenProbeFreesTheProbeSlot() {
    ResilientCall guard = fixture.resolve(call -> call.with(breaker(1)));
    LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException());
    fixture.advance("10000");
    CompletableFuture<String> probe = LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(2, delegate.attempts());

    probe.cancel(true);
    LambdaCalls.callAsync(guard, delegate, null);

    assertEquals(3, delegate.attempts(), "the next call is admitted as the probe");
  }

  @Test
  void aCallerThatGivesUpAsItsTokenArrivesNeverReachesTheDelegate() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(breaker(1))
        .with(limiter("2s"))
        .with(TimeoutConfig.builder(CALL).duration("5s")));
    LambdaCalls.callAsync(guard, delegate, null).cancel(true);
    AtomicReference<CompletableFuture<String>> waiting = new AtomicReference<>();
    cancelOn("ratelimit.waited", waiting);
    waiting.set(LambdaCalls.callAsync(guard, delegate, null));

    fixture.advance("1000");

    assertTrue(waiting.get().isCancelled());
    assertEquals(1, delegate.attempts(), "the deadline was not armed and the delegate not called");
    assertEquals(0, fixture.eventCount("timeout.exceeded"));
    assertEquals(CircuitState.CLOSED, breakerState());
    fixture.advance("10000");
    assertEquals(0, fixture.eventCount("timeout.exceeded"));
  }

  @Test
  void aCallerThatGivesUpAsItTakesABulkheadPermitGivesItBack() {
    ResilientCall guard = fixture.resolve(call -> call.with(breaker(1)).with(bulkhead("50ms")));
    LambdaCalls.callAsync(guard, delegate, null);
    AtomicReference<CompletableFuture<String>> polling = new AtomicReference<>();
    cancelOn("bulkhead.waited", polling);
    polling.set(LambdaCalls.callAsync(guard, delegate, null));

    fixture.advance("20");
    delegate.last().complete("first");
    fixture.advance("10");

    assertTrue(polling.get().isCancelled());
    assertEquals(1, fixture.eventCount("bulkhead.waited"), "the permit was taken, then given back");
    assertEquals(0, inFlight());
    assertEquals(1, delegate.attempts());
  }

  @Test
  void aSchedulerThatRefusesATokensWaitFailsTheCallAndGivesTheTokenBack() {
    ResilientCall guard = fixture.resolve(call -> call.with(limiter("2s")));
    LambdaCalls.callAsync(guard, delegate, null);
    fixture.time.scheduler().shutdown();

    CompletableFuture<String> refused = LambdaCalls.callAsync(guard, delegate, null);
    assertInstanceOf(RejectedExecutionException.class, failureOf(refused));
    fixture.advance("1000");
    CompletableFuture<String> next = LambdaCalls.callAsync(guard, () -> CompletableFuture.completedFuture("on time"), null);

    assertEquals("on time", valueOf(next), "the token reserved for 1 s went to the next caller, without a wait");
  }

  @Test
  void aSchedulerThatRefusesTheDeadlineFailsTheCallBeforeTheDelegateAndReleasesEverything() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(breaker(1))
        .with(bulkhead("0s"))
        .with(TimeoutConfig.builder(CALL).duration("1s")));
    fixture.time.scheduler().shutdown();

    CompletableFuture<String> refused = LambdaCalls.callAsync(guard, delegate, null);

    assertInstanceOf(RejectedExecutionException.class, failureOf(refused));
    assertEquals(0, delegate.attempts());
    assertEquals(0, inFlight());
    assertEquals(CircuitState.CLOSED, breakerState(), "no outcome of the dependency was recorded");
  }

  /** Cancels the caller's future when an event of {@code kind} is emitted, on the emitting thread. */
  private void cancelOn(String kind, AtomicReference<CompletableFuture<String>> caller) {
    fixture.registry.subscribe(event -> {
      if (event.kind().equals(kind) && caller.get() != null) {
        caller.get().cancel(true);
      }
    });
  }
}
