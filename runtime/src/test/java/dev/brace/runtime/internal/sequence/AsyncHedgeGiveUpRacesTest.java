package dev.brace.runtime.internal.sequence;

import static dev.brace.runtime.internal.sequence.AsyncFixture.CALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.LambdaCalls;
import dev.brace.runtime.support.LambdaCalls.AsyncStart;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A caller that gives up on a hedged asynchronous call just as one of its steps is under way, each
 * moment staged on the test's thread: by the delegate itself, by a listener of the hedge's events,
 * or by a callback of a losing attempt's future as the group stops it.
 */
class AsyncHedgeGiveUpRacesTest {
  private final AsyncFixture fixture = new AsyncFixture();
  private final AsyncFixture.Delegate delegate = fixture.delegate;
  private final AtomicReference<CompletableFuture<String>> caller = new AtomicReference<>();

  /**
   * The retry's second group starts, and its first attempt's delegate call is where the caller
   * cancels: the group, already running, must be stopped by the driver that finds its caller gone.
   */
  @Test
  void aCallerThatGivesUpAsTheRetrysNextGroupStartsStopsThatWholeGroup() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(RetryConfig.builder(CALL).maxAttempts(2).delay("50ms").jitter(Retry.Jitter.NONE))
        .with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1)));
    AsyncStart<String> givesUpInTheThirdCall = () -> {
      CompletionStage<String> attempt = delegate.start();
      if (delegate.attempts() == 3) {
        caller.get().cancel(true);
      }
      return attempt;
    };
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, givesUpInTheThirdCall, null);
    caller.set(result);
    delegate.last().completeExceptionally(new IOException("1"));
    delegate.last().completeExceptionally(new IOException("2"));
    assertEquals(2, delegate.attempts(), "the first group failed; the retry waits its backoff");

    fixture.advance("50");
    assertEquals(3, delegate.attempts(), "the second group's first attempt");
    assertTrue(result.isCancelled());
    assertTrue(delegate.last().isCancelled(), "the attempt of a group whose caller is gone is cancelled");
    fixture.advance("1000");
    assertEquals(3, delegate.attempts(), "and that group starts no hedge");
  }

  /**
   * Hedge 2 waits for a bulkhead permit. The caller cancels; as the group stops hedge 1, hedge 1's
   * permit is back and hedge 2's next poll falls due, so hedge 2 is admitted by a group already
   * decided, before its own stop reaches it. It must not call the delegate.
   */
  @Test
  void aHedgeAdmittedAfterItsGroupWasDecidedNeverReachesTheDelegate() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(2))
        .with(BulkheadConfig.builder("bh").maxConcurrent(2).maxWait("1s")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.advance("100");
    fixture.advance("100");
    assertEquals(2, delegate.attempts(), "hedge 2 waits for a permit, polling every 100 ms");

    delegate.started.get(1).whenComplete((value, failure) -> fixture.advance("100"));
    result.cancel(true);

    assertTrue(delegate.started.get(0).isCancelled());
    assertTrue(delegate.started.get(1).isCancelled());
    assertEquals(2, delegate.attempts(), "hedge 2 took a permit but never called the delegate");
    assertEquals(0, fixture.registry.bulkhead("bh").inFlight(), "and gave its permit back");
    fixture.advance("1000");
    assertEquals(2, delegate.attempts());
  }

  /**
   * A caller that gives up as a hedge is admitted (here: as the hedge's start is reported, the
   * last step before its delegate call) stops the hedge, which gives its attempt's state back. The hedge
   * must then go no further: the delegate is not called for a caller who is gone.
   */
  @Test
  void aHedgeWhoseCallerGivesUpAsItIsAdmittedNeverReachesTheDelegate() {
    ResilientCall guard = fixture.resolve(call -> call.with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1)));
    cancelAsTheHedgeStarts();
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    caller.set(result);
    fixture.advance("100");

    assertTrue(result.isCancelled());
    assertEquals(1, delegate.attempts(), "the hedge was stopped before its delegate call");
    assertTrue(delegate.started.get(0).isCancelled());
  }

  /** As above, under the caller's deadline: the stop gave the attempt's state back, and with it the bound that was to be armed. */
  @Test
  void underACallersDeadlineAHedgeWhoseCallerGivesUpAsItIsAdmittedNeverReachesTheDelegate() {
    ResilientCall guard = fixture.resolve(call -> call.with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1)));
    cancelAsTheHedgeStarts();
    CompletableFuture<String> result;
    try (Deadline.Scope scope = Deadline.open(Duration.ofSeconds(5), fixture.time)) {
      result = LambdaCalls.callAsync(guard, delegate, null);
    }
    caller.set(result);
    fixture.advance("100");

    assertTrue(result.isCancelled());
    assertEquals(1, delegate.attempts(), "the hedge was stopped before its delegate call");
    fixture.advance("10000");
    assertEquals(1, delegate.attempts());
  }

  /**
   * As above, with deadlines switched off and a timeout: the timeout's bound does not depend on the
   * ticket, so arming it is where the stop is found.
   */
  @Test
  void underATimeoutWithoutDeadlinesAHedgeWhoseCallerGivesUpAsItIsAdmittedNeverReachesTheDelegate() {
    AsyncFixture fixture = new AsyncFixture(registry -> registry.environment(Map.of("BRACE_DEADLINE_ENABLED", "false")));
    ResilientCall guard = fixture.resolve(call -> call.with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1))
        .with(TimeoutConfig.builder(CALL).duration("1s")));
    fixture.registry.subscribe(event -> {
      if (event.kind().equals("hedge.started")) {
        caller.get().cancel(true);
      }
    });
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, fixture.delegate, null);
    caller.set(result);
    fixture.advance("100");

    assertTrue(result.isCancelled());
    assertEquals(1, fixture.delegate.attempts(), "the hedge was stopped before its delegate call");
    fixture.advance("2000");
    assertEquals(1, fixture.delegate.attempts());
  }

  /**
   * The caller's deadline passes between a hedge's admission (which it passed) and the arming of
   * the hedge's bound, which then has nothing left: the hedge times out at once rather than
   * running unbounded.
   */
  @Test
  void aHedgeWhoseCallersDeadlinePassesAsItIsAdmittedTimesOutAtOnce() {
    ResilientCall guard = fixture.resolve(call -> call.with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1)));
    fixture.registry.subscribe(event -> {
      if (event.kind().equals("hedge.started")) {
        fixture.advance("900");
      }
    });
    CompletableFuture<String> result;
    try (Deadline.Scope scope = Deadline.open(Duration.ofSeconds(1), fixture.time)) {
      result = LambdaCalls.callAsync(guard, delegate, null);
    }
    fixture.advance("100");
    assertEquals(2, delegate.attempts(), "the hedge was admitted before the deadline passed");
    fixture.time.runDueTasks();

    assertTrue(result.isDone(), "the hedge's bound, armed with nothing left, ended it");
    assertTrue(delegate.started.get(1).isCancelled());
  }

  private void cancelAsTheHedgeStarts() {
    fixture.registry.subscribe(event -> {
      if (event.kind().equals("hedge.started")) {
        caller.get().cancel(true);
      }
    });
  }
}
