package dev.brace.runtime.internal.sequence;

import static dev.brace.runtime.internal.sequence.AsyncFixture.CALL;
import static dev.brace.runtime.internal.sequence.AsyncFixture.failureOf;
import static dev.brace.runtime.internal.sequence.AsyncFixture.onAnotherThread;
import static dev.brace.runtime.internal.sequence.AsyncFixture.retry;
import static dev.brace.runtime.internal.sequence.AsyncFixture.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.internal.policy.StaleAnswers;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.LambdaCalls;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous driver's steps that start on one thread and end on another — a retry judged
 * while the caller gives up, a backoff scheduled on one thread and run on another, a {@code
 * @StaleIfError} flight led on one thread and ended on another, a follower that gives up as it
 * takes over a flight — each staged where needed at a hook (an event, a key's hash) and run on
 * threads bounded in time, so a step that left the call's lock held shows as a hang instead of
 * passing unseen on one thread (the lock is reentrant).
 */
class AsyncDriverRacesTest {
  private final AsyncFixture fixture = new AsyncFixture();
  private final AsyncFixture.Delegate delegate = fixture.delegate;

  @Test
  void aCallerWhoGivesUpOnAnotherThreadWhileAFailureIsJudgedGetsNoFurtherAttempt() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(BulkheadConfig.builder("bh").maxConcurrent(1)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    fixture.registry.subscribe(event -> {
      if (event.kind().equals("retry.attempt_failed")) {
        onAnotherThread(() -> result.cancel(true));
      }
    });
    CompletableFuture<String> first = delegate.last();

    onAnotherThread(() -> first.completeExceptionally(new IOException("first")));
    fixture.advance("1000");

    assertTrue(result.isCancelled());
    assertEquals(1, delegate.attempts(), "the backoff was not scheduled after the caller gave up");
    assertEquals(0, fixture.registry.bulkhead("bh").inFlight());
  }

  @Test
  void aBackoffScheduledOnOneThreadStartsTheNextAttemptOnAnother() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> first = delegate.last();

    onAnotherThread(() -> first.completeExceptionally(new IOException("first")));
    onAnotherThread(() -> fixture.advance("100"));

    assertEquals(2, delegate.attempts(), "the backoff scheduled on one thread started the retry on another");
    CompletableFuture<String> second = delegate.last();
    onAnotherThread(() -> second.complete("second"));
    assertEquals("second", valueOf(result));
  }

  @Test
  void aFlightLedOnTheCallersThreadEndsOnTheThreadThatCompletesItsAttempt() {
    ResilientCall guard = fixture.resolve(call -> call.with(StaleIfErrorConfig.builder(CALL).maxAge("1h").fresh("1s")));
    CompletableFuture<String> leader = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> follower = LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(1, delegate.attempts(), "one call of the key reaches the dependency at a time");
    CompletableFuture<String> inner = delegate.last();

    onAnotherThread(() -> inner.complete("ok"));

    assertEquals("ok", valueOf(leader));
    assertEquals("ok", valueOf(follower));
    fixture.advance("2000");
    LambdaCalls.callAsync(guard, delegate, null);
    assertEquals(2, delegate.attempts(), "the flight ended: a call after the fresh window leads one of its own");
  }

  @Test
  void aFlightEndedOnOneThreadLetsItsFallbackCompleteOnAnother() {
    ResilientCall guard = fixture.resolve(call -> call
        .with(StaleIfErrorConfig.builder(CALL).maxAge("1h").fresh("1s"))
        .with(FallbackConfig.builder(CALL)));
    CompletableFuture<String> answer = new CompletableFuture<>();
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, failure -> answer);
    CompletableFuture<String> inner = delegate.last();

    // Nothing is remembered: the failure ends the flight and hands the call to the fallback.
    onAnotherThread(() -> inner.completeExceptionally(new IOException("down")));
    assertFalse(result.isDone(), "the fallback has not answered yet");
    onAnotherThread(() -> answer.complete("fallback"));

    assertEquals("fallback", valueOf(result));
  }

  @Test
  void aFollowerOfALeaderThatFailsOnAnotherThreadFailsWithTheLeadersFailure() {
    ResilientCall guard = fixture.resolve(call -> call.with(StaleIfErrorConfig.builder(CALL).maxAge("1h").fresh("1s")));
    CompletableFuture<String> leader = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> follower = LambdaCalls.callAsync(guard, delegate, null);
    IOException down = new IOException("down");
    CompletableFuture<String> inner = delegate.last();

    onAnotherThread(() -> inner.completeExceptionally(down));

    assertSame(down, failureOf(leader));
    assertSame(down, failureOf(follower), "nothing was remembered: the follower shares the leader's failure");
    assertEquals(1, delegate.attempts());
  }

  @Test
  void aFollowerThatGivesUpAsItTakesOverAnAbandonedFlightEndsThatFlight() {
    ResilientCall guard = fixture.resolve(call -> call.with(StaleIfErrorConfig.builder(CALL).maxAge("1h").fresh("1s")));
    HashHook key = new HashHook();
    Supplier<CallKeys> keys = () -> CallKeys.of(null, null, key);
    CompletableFuture<String> leader = LambdaCalls.callAsync(guard, keys, delegate, null);
    CompletableFuture<String> follower = LambdaCalls.callAsync(guard, keys, delegate, null);
    key.whenLeading.set(() -> follower.cancel(true));

    // The leader gives up: its flight ends without an outcome and the follower, on this thread,
    // goes round again and leads a flight of its own, giving up as it does.
    leader.cancel(true);

    assertTrue(follower.isCancelled());
    assertEquals(1, delegate.attempts(), "the follower gave up before its attempt");
    CompletableFuture<String> next = LambdaCalls.callAsync(guard, keys, delegate, null);
    assertEquals(2, delegate.attempts(), "the flight the follower led as it gave up was ended: the next call leads");
    delegate.last().complete("next");
    assertEquals("next", valueOf(next));
  }

  /**
   * A stale key whose hash, asked for while {@link StaleAnswers#lead} registers a flight under it,
   * runs a step once: the moment between a call deciding to lead and its flight being recorded.
   */
  private static final class HashHook {
    final AtomicReference<Runnable> whenLeading = new AtomicReference<>();

    @Override
    public int hashCode() {
      if (whenLeading.get() != null && leading()) {
        Runnable step = whenLeading.getAndSet(null);
        if (step != null) {
          step.run();
        }
      }
      return 42;
    }

    private static boolean leading() {
      return StackWalker.getInstance().walk(frames -> frames.anyMatch(
          frame -> frame.getClassName().equals(StaleAnswers.class.getName()) && frame.getMethodName().equals("lead")));
    }
  }
}
