package dev.brace.runtime.internal.sequence;

import static dev.brace.runtime.internal.sequence.AsyncFixture.CALL;
import static dev.brace.runtime.internal.sequence.AsyncFixture.failureOf;
import static dev.brace.runtime.internal.sequence.AsyncFixture.valueOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.LambdaCalls;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** A hedged asynchronous call on manual time: every attempt is a further call of the delegate. */
class AsyncHedgeTest {
  private final AsyncFixture fixture = new AsyncFixture();
  private final AsyncFixture.Delegate delegate = fixture.delegate;

  @AfterEach
  void clearMdc() {
    MDC.clear();
  }

  /** Two hedges, 100 ms apart, after IOExceptions only. */
  private static HedgeConfig.Builder hedge() {
    return HedgeConfig.builder(CALL).delay("100ms").maxHedges(2).on(IOException.class);
  }

  private List<Object> attemptsOf(String kind) {
    return fixture.events.stream()
        .filter(event -> event.kind().equals(kind))
        .map(event -> event.attributes().get("attempt"))
        .collect(Collectors.toList());
  }

  @Test
  void aGroupDecidedAsItStartsLeavesTheBackoffAfterItStoppableByTheCaller() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()).with(AsyncFixture.retry()));
    AtomicInteger calls = new AtomicInteger();
    // Not a failure the hedge answers: the group is decided by it within its own start.
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, () -> {
      calls.incrementAndGet();
      return CompletableFuture.failedFuture(new IllegalStateException("down"));
    }, null);
    assertEquals(1, calls.get());

    assertTrue(result.cancel(true));
    fixture.advance("10000");

    assertEquals(1, calls.get(), "the retry's backoff was stopped with the call");
  }

  @Test
  void aGroupWhoseCallerGaveUpAlreadyIsNeverStarted() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()).with(AsyncFixture.retry()));
    AtomicReference<CompletableFuture<String>> caller = new AtomicReference<>();
    fixture.registry.subscribe(event -> {
      if (event.kind().equals("retry.attempt_failed")) {
        caller.get().cancel(true);
      }
    });
    caller.set(LambdaCalls.callAsync(guard, delegate, null));
    delegate.last().completeExceptionally(new IllegalStateException("first"));
    fixture.advance("10000");

    assertTrue(caller.get().isCancelled());
    assertEquals(1, delegate.attempts(), "no group started after the caller gave up");
  }

  @Test
  void anAnswerWithinTheDelayStartsNoHedge() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("99");
    delegate.last().complete("first");

    assertEquals("first", valueOf(result));
    fixture.advance("1000");
    assertEquals(1, delegate.attempts());
    assertTrue(attemptsOf("hedge.started").isEmpty());
    assertTrue(attemptsOf("hedge.won").isEmpty(), "no race took place");
  }

  @Test
  void noAnswerAfterTheDelayStartsAHedgeAndTheFirstToAnswerWinsWhileTheOtherIsCancelled() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");
    assertEquals(2, delegate.attempts(), "the hedge starts once the delay has passed");

    delegate.started.get(1).complete("second");

    assertEquals("second", valueOf(result));
    assertTrue(delegate.started.get(0).isCancelled(), "the slow attempt's future is cancelled at once");
    fixture.advance("1000");
    assertEquals(2, delegate.attempts(), "no further hedge after the decision");
    assertEquals(List.of(2), attemptsOf("hedge.started"));
    assertEquals(List.of(2), attemptsOf("hedge.won"));
  }

  @Test
  void eachHedgeWaitsTheDelayAfterThePreviousOneAndNoMoreThanMaxHedgesStart() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");
    fixture.advance("99");
    assertEquals(2, delegate.attempts());
    fixture.advance("1");
    assertEquals(3, delegate.attempts());
    fixture.advance("10000");
    assertEquals(3, delegate.attempts(), "maxHedges 2: three attempts in all");

    delegate.started.get(0).complete("first, late");
    assertEquals("first, late", valueOf(result), "the original attempt may still win");
    assertTrue(delegate.started.get(1).isCancelled());
    assertTrue(delegate.started.get(2).isCancelled());
    assertEquals(List.of(1), attemptsOf("hedge.won"));
  }

  @Test
  void aFailureInOnStartsTheNextHedgeAtOnce() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException("first"));

    assertEquals(2, delegate.attempts(), "no wait for the delay");
    assertFalse(result.isDone());
    delegate.last().complete("second");
    assertEquals("second", valueOf(result));
  }

  @Test
  void aFailureOutsideOnDecidesTheCallAndCancelsTheOthers() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");
    IllegalStateException broken = new IllegalStateException("second");
    delegate.last().completeExceptionally(broken);

    assertSame(broken, failureOf(result));
    assertTrue(delegate.started.get(0).isCancelled());
    assertEquals(List.of(2), attemptsOf("hedge.won"), "a deciding failure wins too");
  }

  @Test
  void whenEveryAttemptFailsTheLastFailurePropagatesWithTheOthersAttachedInOrder() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    IOException[] failures = {new IOException("1"), new IOException("2"), new IOException("3")};
    for (IOException failure : failures) {
      delegate.last().completeExceptionally(failure);
    }

    assertSame(failures[2], failureOf(result));
    assertArrayEquals(new Throwable[] {failures[0], failures[1]}, failures[2].getSuppressed());
    assertEquals(3, delegate.attempts());
  }

  @Test
  void anErrorDecidesAsItCameWithNothingAttached() {
    ResilientCall guard = fixture.resolve(call -> call.with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(2)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException("first"));
    AssertionError fatal = new AssertionError("fatal");
    delegate.last().completeExceptionally(fatal);

    assertSame(fatal, failureOf(result));
    assertEquals(0, fatal.getSuppressed().length);
    assertEquals(2, delegate.attempts());
    assertTrue(attemptsOf("hedge.won").isEmpty(), "an Error is reported by no event");
  }

  @Test
  void everyAttemptTakesItsOwnPermitAndARefusedHedgeIsNotStarted() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge())
        .with(BulkheadConfig.builder("bh").maxConcurrent(1)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");

    assertEquals(1, delegate.attempts(), "the hedge found the bulkhead full: not started");
    assertFalse(result.isDone(), "a refused hedge is not a failure");
    assertTrue(attemptsOf("hedge.started").isEmpty());
    delegate.last().complete("first");
    assertEquals("first", valueOf(result));
    assertEquals(0, fixture.registry.bulkhead("bh").inFlight());
  }

  @Test
  void aRefusedHedgeIsNoFailureButIsAttachedToTheOneThatEndsTheGroup() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge())
        .with(BulkheadConfig.builder("bh").maxConcurrent(1)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");
    assertEquals(1, delegate.attempts(), "hedge 2 found the bulkhead full");

    IOException first = new IOException("first");
    delegate.last().completeExceptionally(first);
    assertEquals(2, delegate.attempts(), "the failure freed the permit and started hedge 3 at once");
    IOException third = new IOException("third");
    delegate.last().completeExceptionally(third);

    assertSame(third, failureOf(result));
    Throwable[] attached = third.getSuppressed();
    assertEquals(2, attached.length);
    assertInstanceOf(BulkheadFullException.class, attached[0], "in the order they happened");
    assertSame(first, attached[1]);
  }

  @Test
  void theLosersPermitsAreReleasedWhenTheyAreCancelled() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge())
        .with(BulkheadConfig.builder("bh").maxConcurrent(3)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");
    fixture.advance("100");
    assertEquals(3, fixture.registry.bulkhead("bh").inFlight(), "one permit per attempt");

    delegate.started.get(1).complete("second");
    assertEquals("second", valueOf(result));
    assertEquals(0, fixture.registry.bulkhead("bh").inFlight());
  }

  @Test
  void theBreakerRecordsEveryAttemptOnItsOwn() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge())
        .with(CircuitBreakerConfig.builder("cb").failureThreshold(2).resetTimeout("10s")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException("1"));
    delegate.last().completeExceptionally(new IOException("2"));

    assertEquals(CircuitState.OPEN, fixture.registry.circuitBreaker("cb").state(), "two failed attempts, two counted failures");
    assertEquals(2, delegate.attempts(), "the third attempt is refused by the open breaker");
    IOException last = assertInstanceOf(IOException.class, failureOf(result));
    assertEquals("2", last.getMessage());
    assertEquals(2, last.getSuppressed().length, "the first failure and the breaker's refusal of the third");
  }

  @Test
  void eachAttemptHasItsOwnDeadlineAndAnExpiredOneStartsTheNextHedge() {
    ResilientCall guard = fixture.resolve(call -> call.with(HedgeConfig.builder(CALL).delay("1s").maxHedges(1))
        .with(TimeoutConfig.builder(CALL).duration("300ms")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("300");

    assertTrue(delegate.started.get(0).isCancelled(), "the first attempt timed out");
    assertEquals(2, delegate.attempts(), "its TimeoutExceededException started the hedge at once");
    fixture.advance("300");
    TimeoutExceededException expired = assertInstanceOf(TimeoutExceededException.class, failureOf(result));
    assertEquals(1, expired.getSuppressed().length);
  }

  @Test
  void aDelayOfZeroStartsEveryHedgeAtOnce() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge().delay("0ms")));
    LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(3, delegate.attempts());
  }

  @Test
  void anEmptyBudgetStartsNoHedgeAndSaysSo() {
    AsyncFixture fixture = new AsyncFixture(registry -> registry.retryBudget("hedges", b -> b.percentCanRetry(0).minRetriesPerSecond(0)));
    AsyncFixture.Delegate delegate = fixture.delegate;
    ResilientCall guard = fixture.resolve(call -> call.with(hedge().budget("hedges")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("1000");

    assertEquals(1, delegate.attempts());
    List<Event> exhausted = fixture.events.stream().filter(event -> event.kind().equals("hedge.budget_exhausted")).collect(Collectors.toList());
    assertEquals(1, exhausted.size());
    assertEquals("hedges", exhausted.get(0).attributes().get("budget"));
    assertEquals(2, exhausted.get(0).attributes().get("attempt"));
    delegate.last().complete("first");
    assertEquals("first", valueOf(result));
  }

  @Test
  void aHedgeWithdrawsFromTheBudgetItSharesWithTheRetry() {
    // 50% of calls; the retry's deposit is the call's only one.
    AsyncFixture fixture = new AsyncFixture(registry -> registry.retryBudget("shared", b -> b.percentCanRetry(0.5).minRetriesPerSecond(0)));
    AsyncFixture.Delegate delegate = fixture.delegate;
    ResilientCall guard = fixture.resolve(call -> call
        .with(RetryConfig.builder(CALL).maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE).budget("shared"))
        .with(hedge().budget("shared")));

    CompletableFuture<String> first = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> second = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");
    assertEquals(3, delegate.attempts(), "two calls allow one hedge");
    fixture.advance("100");
    assertEquals(3, delegate.attempts());
    delegate.started.forEach(attempt -> attempt.complete("done"));
    assertEquals("done", valueOf(first));
    assertEquals("done", valueOf(second));
  }

  @Test
  void aRetryAroundTheHedgeTriesTheWholeGroupAgain() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(RetryConfig.builder(CALL).maxAttempts(2).delay("50ms").jitter(Retry.Jitter.NONE))
        .with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException("1"));
    delegate.last().completeExceptionally(new IOException("2"));
    assertEquals(2, delegate.attempts());
    assertFalse(result.isDone(), "the retry waits its backoff");

    fixture.advance("50");
    assertEquals(3, delegate.attempts(), "the second group's first attempt");
    fixture.advance("100");
    assertEquals(4, delegate.attempts(), "and its hedge");
    delegate.last().complete("fourth");
    assertEquals("fourth", valueOf(result));
    assertEquals(List.of(2, 2), attemptsOf("hedge.started"), "attempts count within each group");
  }

  @Test
  void aCallerThatCancelsStopsEveryAttempt() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge())
        .with(BulkheadConfig.builder("bh").maxConcurrent(3)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");
    result.cancel(true);

    assertTrue(delegate.started.get(0).isCancelled());
    assertTrue(delegate.started.get(1).isCancelled());
    fixture.advance("1000");
    assertEquals(2, delegate.attempts(), "no hedge after the caller gave up");
    assertEquals(0, fixture.registry.bulkhead("bh").inFlight());
  }

  @Test
  void theFirstAttemptRefusedIsWhatTheCallEndsWith() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge())
        .with(BulkheadConfig.builder("bh").maxConcurrent(1)));
    CompletableFuture<String> holder = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> refused = LambdaCalls.callAsync(guard, delegate, null);

    assertInstanceOf(BulkheadFullException.class, failureOf(refused));
    assertEquals(1, delegate.attempts());
    delegate.last().complete("held");
    assertEquals("held", valueOf(holder));
  }

  @Test
  void aHedgeStartedOnTheSchedulerSeesTheCallersContextAndLeavesTheThreadsOwn() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()));
    List<String> seen = new CopyOnWriteArrayList<>();

    MDC.put("request", "caller");
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, () -> {
      seen.add(MDC.get("request"));
      return delegate.start();
    }, null);
    // The hedge's timer runs on this thread as it moves manual time, holding another context.
    MDC.put("request", "driver");
    fixture.advance("100");
    delegate.started.get(1).complete("second");

    assertEquals("second", valueOf(result));
    assertEquals(List.of("caller", "caller"), seen, "the hedge ran in the caller's context");
    assertEquals("driver", MDC.get("request"), "the thread has its own context back");
  }

  @Test
  void whatFollowsAGroupDecidedOnAnotherThreadRunsInTheCallersContext() {
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()).with(FallbackConfig.builder(CALL)));
    List<String> seen = new CopyOnWriteArrayList<>();

    MDC.put("request", "caller");
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, failure -> {
      seen.add(MDC.get("request"));
      return CompletableFuture.completedFuture("fallback");
    });
    // The attempt fails, outside the hedge's `on`, on a thread holding another context: the group
    // is decided there, and the fallback after it must still see the caller's.
    MDC.put("request", "completing");
    delegate.last().completeExceptionally(new IllegalStateException("down"));

    assertEquals("fallback", valueOf(result));
    assertEquals(List.of("caller"), seen);
    assertEquals("completing", MDC.get("request"), "the thread has its own context back");
  }

  @Test
  void aHedgedCallTakesTheHedgeEvenWhenItsFirstFutureIsCompleteAtOnce() {
    // The async fast path answers a complete future on the caller's thread; a hedged call must not
    // take it, or a first attempt that fails at once would end the call without its hedge.
    ResilientCall guard = fixture.resolve(call -> call.with(hedge()));
    List<CompletableFuture<String>> answers = List.of(
        CompletableFuture.failedFuture(new IOException("first")), CompletableFuture.completedFuture("second"));
    AtomicInteger attempts = new AtomicInteger();

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, () -> answers.get(attempts.getAndIncrement()), null);

    assertEquals("second", valueOf(result));
    assertEquals(2, attempts.get());
  }
}
