package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.LambdaCalls;

import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.LambdaCalls.AsyncStart;
import dev.brace.runtime.support.CallDefinition;

import static dev.brace.runtime.internal.sequence.AsyncFixture.CALL;
import static dev.brace.runtime.internal.sequence.AsyncFixture.failureOf;
import static dev.brace.runtime.internal.sequence.AsyncFixture.retry;
import static dev.brace.runtime.internal.sequence.AsyncFixture.valueOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** Retry, fallback and the delegate's own ways of failing, on the async path. */
class AsyncDriverTest {
  private final AsyncFixture fixture = new AsyncFixture();
  private final AsyncFixture.Delegate delegate = fixture.delegate;

  @Test
  void retriesAfterEachBackoffOnTheScheduler() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);

    delegate.last().completeExceptionally(new IOException("first"));
    assertEquals(1, delegate.attempts());
    fixture.advance("99");
    assertEquals(1, delegate.attempts(), "the backoff is 100 ms");
    fixture.advance("1");
    assertEquals(2, delegate.attempts());

    delegate.last().completeExceptionally(new IOException("second"));
    fixture.advance("100");
    assertEquals(3, delegate.attempts());
    assertFalse(result.isDone());
    delegate.last().complete("ok");

    assertEquals("ok", valueOf(result));
  }

  @Test
  void exhaustionCompletesWithTheLastFailureItselfAndTheEarlierOnesSuppressed() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    IOException first = new IOException("first");
    IOException second = new IOException("second");
    IOException third = new IOException("third");

    delegate.last().completeExceptionally(first);
    fixture.advance("100");
    delegate.last().completeExceptionally(new CompletionException(second));
    fixture.advance("100");
    delegate.last().completeExceptionally(third);

    assertSame(third, failureOf(result), "the real cause, not a CompletionException");
    assertArrayEquals(new Throwable[] {first, second}, third.getSuppressed());
    assertEquals(3, fixture.eventCount("retry.attempt_failed"));
    assertEquals(1, fixture.eventCount("retry.exhausted"));
  }

  @Test
  void filtersSeeTheCauseThroughCompletionAndExecutionExceptions() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry().on(IOException.class)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);

    delegate.last().completeExceptionally(new CompletionException(new IOException("wrapped")));
    fixture.advance("100");
    assertEquals(2, delegate.attempts(), "an IOException inside CompletionException is retried");
    delegate.last().completeExceptionally(new ExecutionException(new IOException("wrapped")));
    fixture.advance("100");
    assertEquals(3, delegate.attempts(), "an IOException inside ExecutionException is retried");
    delegate.last().complete("ok");
    assertEquals("ok", valueOf(result));
  }

  @Test
  void aRetryWithoutBackoffStartsItsNextAttemptAtOnce() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry().delay("0ms")));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);

    delegate.last().completeExceptionally(new IOException("first"));

    assertEquals(2, delegate.attempts(), "started without waiting for the scheduler");
    delegate.last().complete("ok");
    assertEquals("ok", valueOf(result));
  }

  @Test
  void aFailureTheFiltersRejectIsNotRetried() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry().on(IOException.class)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    IllegalStateException notRetried = new IllegalStateException("no");

    delegate.last().completeExceptionally(new CompletionException(notRetried));
    fixture.advance("1000");

    assertEquals(1, delegate.attempts());
    assertSame(notRetried, failureOf(result));
  }

  @Test
  void aResultTheRetryRejectsIsRetriedAndTheLastOneReturned() {
    RetryConfig.Builder retry = retry().onResult((String value) -> value.startsWith("busy"));
    ResilientCall guard = fixture.resolve(call -> call.with(retry));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);

    delegate.last().complete("busy 1");
    fixture.advance("100");
    delegate.last().complete("busy 2");
    fixture.advance("100");
    assertEquals(3, delegate.attempts());
    delegate.last().complete("busy 3");

    assertEquals("busy 3", valueOf(result));
  }

  @Test
  void aResultPredicateThatThrowsFailsThatAttemptWhichIsRetriedLikeAnyFailure() {
    RetryConfig.Builder retry = retry().maxAttempts(4).onResult((String value) -> {
      if (value.equals("unreadable")) {
        throw new IllegalStateException("cannot judge " + value);
      }
      return value.equals("busy");
    });
    ResilientCall guard = fixture.resolve(call -> call.with(retry));
    List<String> answers = new ArrayList<>(List.of("unreadable", "busy", "unreadable", "ok"));
    AtomicInteger calls = new AtomicInteger();
    AsyncStart<String> answering = () -> CompletableFuture.completedFuture(answers.get(calls.getAndIncrement()));

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, answering, null);
    assertEquals(1, calls.get());
    assertFalse(result.isDone(), "the first attempt failed: its predicate threw");
    fixture.advance("100");
    assertEquals(2, calls.get());
    fixture.advance("100");
    assertEquals(3, calls.get(), "a result the retry repeats");
    assertFalse(result.isDone(), "the third attempt failed: its predicate threw");
    fixture.advance("100");

    assertEquals(4, calls.get());
    assertEquals("ok", valueOf(result));
  }

  @Test
  void aFailureThrownBeforeAFutureIsReturnedIsTreatedLikeAFailedFuture() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()));
    AtomicInteger calls = new AtomicInteger();
    AsyncStart<String> throwsFirst = () -> {
      if (calls.incrementAndGet() == 1) {
        throw new IOException("thrown, not returned");
      }
      return CompletableFuture.completedFuture("ok");
    };

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, throwsFirst, null);
    assertFalse(result.isDone(), "the throw waits out the backoff like a failed future");
    fixture.advance("100");

    assertEquals("ok", valueOf(result));
    assertEquals(2, calls.get());
  }

  @Test
  void aThrowWithoutRetryCompletesTheFutureInsteadOfThrowing() {
    ResilientCall guard = fixture.resolve(call -> call);
    IOException thrown = new IOException("thrown");

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, () -> { throw thrown; }, null);

    assertSame(thrown, failureOf(result));
  }

  @Test
  void aNullFutureFailsWithANullPointerExceptionNamingTheCall() {
    ResilientCall guard = fixture.resolve(call -> call);

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, () -> null, null);

    Throwable failure = failureOf(result);
    assertInstanceOf(NullPointerException.class, failure);
    assertTrue(failure.getMessage().contains(CALL), failure.getMessage());
  }

  @Test
  void anErrorIsNeitherRetriedNorFallenBack() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(FallbackConfig.builder(CALL)));
    AtomicInteger fallbacks = new AtomicInteger();
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, failure -> {
      fallbacks.incrementAndGet();
      return CompletableFuture.completedFuture("fallback");
    });
    OutOfMemoryError error = new OutOfMemoryError("test");

    delegate.last().completeExceptionally(error);
    fixture.advance("1000");

    assertSame(error, failureOf(result));
    assertEquals(1, delegate.attempts());
    assertEquals(0, fallbacks.get());
  }

  @Test
  void theFallbackAnswersWithItsFutureAndSeesTheRealCause() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(FallbackConfig.builder(CALL)));
    AtomicReference<Throwable> answered = new AtomicReference<>();
    CompletableFuture<String> answer = new CompletableFuture<>();
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, failure -> {
      answered.set(failure);
      return answer;
    });
    IOException last = new IOException("last");

    for (int attempt = 1; attempt <= 3; attempt++) {
      delegate.last().completeExceptionally(attempt == 3 ? new CompletionException(last) : new IOException());
      fixture.advance("100");
    }
    assertSame(last, answered.get());
    assertFalse(result.isDone(), "completes with the fallback's future, not before it");
    answer.complete("fallback");

    assertEquals("fallback", valueOf(result));
    assertEquals(1, fixture.eventCount("fallback.used"));
  }

  @Test
  void aPlainFallbackValueIsReturned() {
    ResilientCall guard = fixture.resolve(call -> call.with(FallbackConfig.builder(CALL)));
    CompletableFuture<String> result =
        LambdaCalls.callAsync(guard, delegate, failure -> CompletableFuture.completedFuture("plain"));

    delegate.last().completeExceptionally(new IOException());

    assertEquals("plain", valueOf(result));
  }

  @Test
  void aFallbackThatFailsCompletesWithItsFailureAndTheOriginalSuppressed() {
    ResilientCall guard = fixture.resolve(call -> call.with(FallbackConfig.builder(CALL)));
    IOException original = new IOException("original");
    IllegalStateException fallbackFailure = new IllegalStateException("fallback failed");

    CompletableFuture<String> thrown = LambdaCalls.callAsync(guard, delegate, failure -> { throw fallbackFailure; });
    delegate.last().completeExceptionally(original);
    assertSame(fallbackFailure, failureOf(thrown));
    assertArrayEquals(new Throwable[] {original}, fallbackFailure.getSuppressed());

    IOException original2 = new IOException("original 2");
    UncheckedIOException failedFuture = new UncheckedIOException(new IOException("fallback future failed"));
    CompletableFuture<String> failed =
        LambdaCalls.callAsync(guard, delegate, failure -> CompletableFuture.failedFuture(new CompletionException(failedFuture)));
    delegate.last().completeExceptionally(original2);
    assertSame(failedFuture, failureOf(failed));
    assertArrayEquals(new Throwable[] {original2}, failedFuture.getSuppressed());
  }

  @Test
  void aFailureTheFallbackDoesNotAnswerPropagates() {
    ResilientCall guard =
        fixture.resolve(call -> call.with(FallbackConfig.builder(CALL).ignore(IllegalStateException.class)));
    IllegalStateException ignored = new IllegalStateException();

    CompletableFuture<String> result =
        LambdaCalls.callAsync(guard, delegate, failure -> CompletableFuture.completedFuture("fallback"));
    delegate.last().completeExceptionally(ignored);

    assertSame(ignored, failureOf(result));
  }

  @Test
  void cancellingDuringTheBackoffStopsFurtherAttempts() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException());

    assertTrue(result.cancel(true));
    fixture.advance("10000");

    assertEquals(1, delegate.attempts());
  }

  @Test
  void cancellingTheFallbackInFlightCancelsItsFuture() {
    ResilientCall guard = fixture.resolve(call -> call.with(FallbackConfig.builder(CALL)));
    CompletableFuture<String> answer = new CompletableFuture<>();
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, failure -> answer);
    delegate.last().completeExceptionally(new IOException());

    result.cancel(true);

    assertTrue(answer.isCancelled());
  }

  @Test
  void aCallerThatCompletesTheFutureItselfStopsTheAttemptInFlightAndItsPermitComesBack() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()).with(BulkheadConfig.builder("bh").maxConcurrent(1)));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> inFlight = delegate.last();

    assertTrue(result.complete("the caller's own"));

    assertTrue(inFlight.isCancelled(), "the delegate's future was cancelled");
    assertEquals(0, fixture.registry.bulkhead("bh").inFlight());
    assertEquals("the caller's own", result.join());
  }

  @Test
  void aCallerThatFailsTheFutureItselfDuringTheBackoffGetsNoFurtherAttempt() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    delegate.last().completeExceptionally(new IOException());

    assertTrue(result.completeExceptionally(new IllegalStateException("given up")));
    fixture.advance("10000");

    assertEquals(1, delegate.attempts());
  }

  @Test
  void aCallerThatCompletesTheFutureAsynchronouslyStopsTheAttemptInFlight() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()));
    CompletableFuture<String> result = LambdaCalls.callAsync(guard, delegate, null);
    CompletableFuture<String> inFlight = delegate.last();

    result.completeAsync(() -> "the caller's own", Runnable::run);

    assertTrue(inFlight.isCancelled());
    assertEquals("the caller's own", result.join());
  }

  // ---- switched off ----

  @Test
  void switchedOffTheCallGetsTheDelegatesOwnFutureAndNoKeyIsComputed() {
    AsyncFixture off = new AsyncFixture(settings -> settings.environment(Map.of("BRACE_ENABLED", "false")));
    ResilientCall guard = off.resolve(call -> call.with(retry()));
    AtomicInteger keysComputed = new AtomicInteger();

    CompletableFuture<String> result = LambdaCalls.callAsync(guard, () -> {
      keysComputed.incrementAndGet();
      throw new IllegalStateException("keys are never computed when Brace is off");
    }, off.delegate, null);

    assertSame(off.delegate.last(), result, "the delegate's future itself, nothing around it");
    assertEquals(0, keysComputed.get());
    off.delegate.last().completeExceptionally(new IOException("not retried"));
    off.advance("1000");
    assertEquals(1, off.delegate.attempts());
  }

  @Test
  void switchedOffAThrowOrANullFutureStillComesBackAsAFailedFuture() {
    AsyncFixture off = new AsyncFixture(settings -> settings.environment(Map.of("BRACE_ENABLED", "false")));
    ResilientCall guard = off.resolve(call -> call.with(retry()));
    IOException thrown = new IOException("thrown");

    CompletableFuture<String> threw = LambdaCalls.callAsync(guard, () -> { throw thrown; }, null);
    CompletableFuture<String> returnedNull = LambdaCalls.callAsync(guard, () -> null, null);

    assertSame(thrown, failureOf(threw));
    assertInstanceOf(NullPointerException.class, failureOf(returnedNull));
    assertTrue(failureOf(returnedNull).getMessage().contains(CALL), failureOf(returnedNull).getMessage());
  }

  // ---- a stage that is not a CompletableFuture ----

  @Test
  void aStageThatCannotBecomeACompletableFutureIsFollowedToItsOutcome() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry()));
    CompletableFuture<String> first = new CompletableFuture<>();
    CompletableFuture<String> second = new CompletableFuture<>();
    AtomicInteger attempts = new AtomicInteger();
    IOException failure = new IOException("first");

    CompletableFuture<String> result =
        LambdaCalls.callAsync(guard, () -> opaque(attempts.incrementAndGet() == 1 ? first : second), null);
    first.completeExceptionally(failure);
    fixture.advance("100");
    assertEquals(2, attempts.get(), "the opaque stage's failure was seen and retried");
    second.complete("ok");

    assertEquals("ok", valueOf(result));
  }

  /** A stage whose {@code toCompletableFuture} is unsupported, as the interface allows. */
  @SuppressWarnings("unchecked")
  private static CompletionStage<String> opaque(CompletableFuture<String> behind) {
    return (CompletionStage<String>) Proxy.newProxyInstance(
        CompletionStage.class.getClassLoader(), new Class<?>[] {CompletionStage.class}, (proxy, method, args) -> {
          if (method.getName().equals("toCompletableFuture")) {
            throw new UnsupportedOperationException("opaque");
          }
          try {
            return method.invoke(behind, args);
          } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
          }
        });
  }

  // ---- the caller giving up at the moment a step runs ----

  @Test
  void aCallerThatGivesUpAsAnAttemptFailsGetsNoFurtherAttemptEvenWithoutABackoff() {
    ResilientCall guard = fixture.resolve(call -> call.with(retry().delay("0ms")));
    AtomicReference<CompletableFuture<String>> caller = new AtomicReference<>();
    fixture.registry.subscribe(event -> {
      if (event.kind().equals("retry.attempt_failed")) {
        caller.get().cancel(true);
      }
    });
    caller.set(LambdaCalls.callAsync(guard, delegate, null));

    delegate.last().completeExceptionally(new IOException("first"));
    fixture.advance("1000");

    assertTrue(caller.get().isCancelled());
    assertEquals(1, delegate.attempts(), "the retry that needed no wait did not start either");
  }

  @Test
  void aFallbackWhoseCallerGaveUpWhileItStartedIsCancelled() {
    ResilientCall guard = fixture.resolve(call -> call.with(FallbackConfig.builder(CALL)));
    AtomicReference<CompletableFuture<String>> caller = new AtomicReference<>();
    CompletableFuture<String> answer = new CompletableFuture<>();
    caller.set(LambdaCalls.callAsync(guard, delegate, failure -> {
      caller.get().cancel(true);
      return answer;
    }));

    delegate.last().completeExceptionally(new IOException());

    assertTrue(caller.get().isCancelled());
    assertTrue(answer.isCancelled(), "nothing the fallback started outlives the caller");
  }

  /**
   * 1,000 calls, each failing twice with 100 ms backoffs, on a scheduler of one thread that also
   * completes the delegate's futures. A driver that slept or waited on that thread would need
   * 200 s, or never finish.
   */
  @Test
  void aThousandCallsWithRetriesFinishOnASingleSchedulerThread() throws Exception {
    ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
    try {
      Registry registry = Registry.builder().scheduler(scheduler).build();
      ResilientCall guard = registry.resolve(LambdaCalls.builder(CALL)
          .with(RetryConfig.builder(CALL).maxAttempts(3).delay("100ms").jitter(Retry.Jitter.NONE))
          .build());
      List<CompletableFuture<String>> results = new ArrayList<>();
      AtomicInteger attempts = new AtomicInteger();
      long begin = System.nanoTime();
      for (int i = 0; i < 1000; i++) {
        AtomicInteger attempt = new AtomicInteger();
        results.add(LambdaCalls.callAsync(guard, () -> {
          attempts.incrementAndGet();
          int number = attempt.incrementAndGet();
          CompletableFuture<String> outcome = new CompletableFuture<>();
          scheduler.schedule(() -> {
            if (number < 3) {
              outcome.completeExceptionally(new IOException("attempt " + number));
            } else {
              outcome.complete("done");
            }
          }, 5, TimeUnit.MILLISECONDS);
          return outcome;
        }, null));
      }

      CompletableFuture.allOf(results.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);

      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
      assertTrue(elapsedMillis < 20_000, "took " + elapsedMillis + " ms");
      for (CompletableFuture<String> result : results) {
        assertEquals("done", valueOf(result));
      }
      assertEquals(3000, attempts.get());
    } finally {
      scheduler.shutdownNow();
    }
  }
}
