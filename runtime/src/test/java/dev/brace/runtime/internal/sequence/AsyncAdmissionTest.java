package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.LambdaCalls;

import static dev.brace.runtime.internal.sequence.AsyncFixture.CALL;
import static dev.brace.runtime.internal.sequence.AsyncFixture.failureOf;
import static dev.brace.runtime.internal.sequence.AsyncFixture.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.Event;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.LambdaCalls.AsyncStart;
import dev.brace.runtime.support.ResilientCall;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The async driver's slow path (a timeout arms a task before each attempt): a bulkhead wait and
 * its report, a breaker that judges latency, a delegate that throws instead of returning a future,
 * a timed attempt stopped by a caller on another thread, adaptive permits polled for and given
 * back, a breaker's result predicate that throws, a limiter's refusal.
 */
class AsyncAdmissionTest {
  private final AsyncFixture fixture = new AsyncFixture();
  private final AsyncFixture.Delegate delegate = fixture.delegate;

  private static TimeoutConfig.Builder timeout() {
    return TimeoutConfig.builder(CALL).duration("5s");
  }

  private List<Event> all(String kind) {
    return fixture.events.stream().filter(event -> event.kind().equals(kind)).toList();
  }

  @Test
  void aFreePermitIsTakenAtOnceAndNoWaitIsReported() {
    ResilientCall guard = fixture.resolve(call -> call.with(timeout())
        .with(BulkheadConfig.builder("bh").maxConcurrent(1).maxWait("50ms")));

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().complete("ok");

    assertEquals("ok", valueOf(result));
    assertEquals(List.of(), all("bulkhead.waited"));
  }

  @Test
  void anAttemptThatPolledForThePermitReportsHowLongItWaited() {
    ResilientCall guard = fixture.resolve(call -> call.with(timeout())
        .with(BulkheadConfig.builder("bh").maxConcurrent(1).maxWait("50ms")));
    long calledAt = fixture.time.nanoTime();
    LambdaCalls.callAsync(guard, delegate, null);
    AtomicLong secondStartedAt = new AtomicLong(-1);
    AsyncStart<String> second = () -> {
      secondStartedAt.set(fixture.time.nanoTime());
      return CompletableFuture.completedFuture("second");
    };
    CompletableFuture<String> waiting = LambdaCalls.callAsync(guard, second, null);
    assertFalse(waiting.isDone());

    fixture.advance("20");
    delegate.last().complete("first");
    fixture.advance("10");

    assertEquals("second", valueOf(waiting));
    List<Event> waited = all("bulkhead.waited");
    assertEquals(1, waited.size(), "one wait, reported once");
    long waitedNanos = secondStartedAt.get() - calledAt;
    assertEquals(waitedNanos, waited.get(0).attributes().get("waited_ns"));
    assertEquals(waitedNanos / 1_000_000, waited.get(0).attributes().get("waited_ms"));
  }

  @Test
  void aBreakerThatJudgesLatencyOpensOnASlowSuccessOfAnAsyncAttempt() {
    ResilientCall guard = fixture.resolve(call -> call.with(timeout())
        .with(CircuitBreakerConfig.builder("cb").failureThreshold(5).slowCall("100ms").slowCallRate(1.0)
            .minimumCalls(1).resetTimeout("10s")));

    CompletableFuture<String> slow = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("200");
    delegate.last().complete("late");

    assertEquals("late", valueOf(slow));
    assertInstanceOf(CircuitOpenException.class, failureOf(LambdaCalls.callAsync(guard, delegate, null)),
        "one slow call of one is a slow-call rate of 1.0");
    assertEquals(1, delegate.attempts());
  }

  @Test
  void aDelegateThatThrowsInsteadOfReturningAFutureFailsTheCallWithWhatItThrew() {
    ResilientCall guard = fixture.resolve(call -> call.with(timeout()));
    IllegalStateException thrown = new IllegalStateException("no connection");

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, () -> {
      throw thrown;
    }, null);

    assertSame(thrown, failureOf(result));
  }

  @Test
  void aTimedAttemptCanBeStoppedFromAnotherThread() throws Exception {
    ResilientCall guard = fixture.resolve(call -> call.with(timeout())
        .with(CircuitBreakerConfig.builder("cb").failureThreshold(5).slowCall("100ms").resetTimeout("10s")));

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    // The attempt was timed on this thread; the caller gives up on another, which must find the
    // call's lock free to stop the attempt.
    CompletableFuture<Boolean> cancelled = CompletableFuture.supplyAsync(() -> result.cancel(true));

    assertTrue(cancelled.get(10, TimeUnit.SECONDS));
    assertTrue(delegate.last().isCancelled(), "the attempt in flight is stopped with the call");
  }

  @Test
  void aCallerWhoGivesUpReturnsItsAdaptiveBulkheadPermitWithoutASample() {
    ResilientCall guard = fixture.resolve(call -> call.with(timeout())
        .with(BulkheadConfig.builder("adaptive-bh").adaptive(Bulkhead.Adaptive.AIMD)
            .minConcurrent(1).initialConcurrent(2).maxConcurrent(4)));

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(1, fixture.registry.bulkhead("adaptive-bh").inFlight());
    result.cancel(true);

    assertTrue(delegate.last().isCancelled(), "the attempt in flight is stopped");
    assertEquals(0, fixture.registry.bulkhead("adaptive-bh").inFlight(), "its permit is back");
    assertEquals(2, fixture.registry.bulkhead("adaptive-bh").limit(), "a call given up teaches the limit nothing");
  }

  @Test
  void anAttemptThatPolledForAnAdaptivePermitIsTimedAndGivesItBack() {
    ResilientCall guard = fixture.resolve(call -> call.with(timeout())
        .with(BulkheadConfig.builder("adaptive-wait").adaptive(Bulkhead.Adaptive.AIMD)
            .minConcurrent(1).initialConcurrent(1).maxConcurrent(4).maxWait("50ms")));
    LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> waiting = LambdaCalls.callAsync(guard, delegate, null);
    assertFalse(waiting.isDone(), "a limit of one: the second call polls for the permit");

    fixture.advance("20");
    delegate.last().complete("first");
    fixture.advance("10");
    assertEquals(2, delegate.attempts(), "the second call got the permit");
    fixture.advance("30");
    delegate.last().complete("second");

    assertEquals("second", valueOf(waiting));
    assertEquals(0, fixture.registry.bulkhead("adaptive-wait").inFlight(), "both permits are back");
    assertEquals(3, fixture.registry.bulkhead("adaptive-wait").limit(),
        "both attempts were timed samples of a full limit, each adding one");
  }

  @Test
  void aBreakerResultPredicateThatThrowsEndsALaterAsyncAnswerWithWhatItThrew() {
    IllegalStateException broken = new IllegalStateException("the predicate broke");
    ResilientCall guard = fixture.resolve(call -> call.with(timeout())
        .with(CircuitBreakerConfig.builder("judging-cb").onResult(value -> {
          throw broken;
        })));

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().complete("answer");

    assertSame(broken, failureOf(result), "as a sync call would end");
  }

  @Test
  void aLimiterThatHasNoTokenRefusesALaterAttemptWithoutCallingTheDependency() {
    ResilientCall guard = fixture.resolve(call -> call.with(timeout())
        .with(RateLimitConfig.builder("timed-quota").permits(1).per("1s")));

    CompletableFuture<String> first = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().complete("first");
    CompletableFuture<String> second = LambdaCalls.callAsync(guard, delegate, null);

    assertEquals("first", valueOf(first));
    assertInstanceOf(RateLimitedException.class, failureOf(second));
    assertEquals(1, delegate.attempts(), "the refused call never reached the dependency");
  }
}
