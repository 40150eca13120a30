package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.LambdaCalls;

import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.CallDefinition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.RetryAfterHint;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sync steps of ResilientCall for retry, timeout and fallback, through the same loop generated code has. */
class SyncGuardTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();
  private final List<Event> events = new ArrayList<>();
  private final AutoCloseable subscription = registry.subscribe(events::add);

  @AfterEach
  void clearInterrupt() throws Exception {
    Thread.interrupted();
    subscription.close();
  }

  private static RetryConfig.Builder retry() {
    return RetryConfig.builder("C.m").maxAttempts(3).delay("100ms").jitter(Retry.Jitter.NONE);
  }

  private ResilientCall guard(CallDefinition.Builder definition) {
    return registry.resolve(definition.build());
  }

  private static CallDefinition.Builder call() {
    return LambdaCalls.builder("C.m");
  }

  @Test
  void retriesUpToMaxAttemptsAndRethrowsTheLastFailureWithTheEarlierOnesSuppressedInOrder() {
    ResilientCall guard = guard(call().with(retry()));
    AtomicInteger calls = new AtomicInteger();
    IOException[] thrown = new IOException[3];

    IOException last = assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> {
      int n = calls.getAndIncrement();
      thrown[n] = new IOException("attempt " + (n + 1));
      throw thrown[n];
    }, null));

    assertEquals(3, calls.get());
    assertSame(thrown[2], last, "the checked exception arrives as itself");
    assertArrayEquals(new Throwable[] {thrown[0], thrown[1]}, last.getSuppressed());
  }

  @Test
  void backoffGrowsByTheMultiplierAndIsSleptOnTheTimeSource() throws Throwable {
    ResilientCall guard = guard(call().with(retry().maxAttempts(4).multiplier(3)));
    long start = clock.nanoTime();
    List<Long> attemptTimes = new ArrayList<>();

    String result = LambdaCalls.call(guard, () -> {
      attemptTimes.add(TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - start));
      if (attemptTimes.size() < 4) {
        throw new IOException("not yet");
      }
      return "ok";
    }, null);

    assertEquals("ok", result);
    assertEquals(List.of(0L, 100L, 400L, 1300L), attemptTimes);
  }

  @Test
  void eventsFireForEveryFailedAttemptThenExhausted() {
    ResilientCall guard = guard(call().with(retry().maxAttempts(2)));

    assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> {
      throw new IOException("down");
    }, null));

    assertEquals(List.of("retry.attempt_failed", "retry.attempt_failed", "retry.exhausted"),
        events.stream().map(Event::kind).toList());
    Event first = events.get(0);
    assertEquals("C.m", first.instance());
    assertEquals(1, first.attributes().get("attempt"));
    assertEquals(100L, first.attributes().get("delay_ms"));
    assertEquals("java.io.IOException", first.attributes().get("exception"));
    assertEquals("down", first.attributes().get("message"));
    assertFalse(events.get(1).attributes().containsKey("delay_ms"), "no wait after the last attempt");
  }

  @Test
  void aFailureTheRetryDoesNotRetryIsStillReportedAsAFailedAttempt() {
    ResilientCall guard = guard(call().with(retry().on(IOException.class)));

    assertThrows(IllegalStateException.class, () -> LambdaCalls.call(guard, () -> {
      throw new IllegalStateException("not retried");
    }, null));

    assertEquals(List.of("retry.attempt_failed"), events.stream().map(Event::kind).toList());
    assertFalse(events.get(0).attributes().containsKey("delay_ms"));
  }

  @Test
  void failuresOutsideOnOrInIgnoreAreNotRetried() {
    ResilientCall guard = guard(call().with(retry().on(IOException.class).ignore(java.io.FileNotFoundException.class)));
    AtomicInteger calls = new AtomicInteger();

    assertThrows(IllegalStateException.class, () -> LambdaCalls.call(guard, () -> {
      calls.incrementAndGet();
      throw new IllegalStateException("not an IOException");
    }, null));
    assertThrows(java.io.FileNotFoundException.class, () -> LambdaCalls.call(guard, () -> {
      calls.incrementAndGet();
      throw new java.io.FileNotFoundException("ignored");
    }, null));

    assertEquals(2, calls.get());
  }

  @Test
  void anErrorIsNeverRetriedNorFallenBack() {
    ResilientCall guard = guard(call().with(retry().on(Throwable.class)).with(FallbackConfig.builder("C.m").on(Throwable.class)));
    AtomicInteger calls = new AtomicInteger();

    assertThrows(StackOverflowError.class, () -> LambdaCalls.call(guard, () -> {
      calls.incrementAndGet();
      throw new StackOverflowError();
    }, failure -> "fallback"));

    assertEquals(1, calls.get());
  }

  @Test
  void anErrorAfterRetriedFailuresLeavesAsItCameWithNothingAttached() {
    ResilientCall guard = guard(call().with(retry()));
    AtomicInteger calls = new AtomicInteger();
    StackOverflowError error = new StackOverflowError();

    StackOverflowError thrown = assertThrows(StackOverflowError.class, () -> LambdaCalls.call(guard, () -> {
      if (calls.incrementAndGet() == 1) {
        throw new IOException("retried");
      }
      throw error;
    }, null));

    assertSame(error, thrown);
    assertEquals(0, thrown.getSuppressed().length);
    assertEquals(2, calls.get());
  }

  @Test
  void aRefusalIsRetriedOnlyWhenItsExactClassIsNamedAndThenWaitsItsRetryAfter() throws Throwable {
    AtomicInteger calls = new AtomicInteger();
    ResilientCall broad = guard(call().with(retry().on(Exception.class)));
    assertThrows(CircuitOpenException.class, () -> LambdaCalls.call(broad, () -> {
      calls.incrementAndGet();
      throw new CircuitOpenException("deeper", Duration.ofSeconds(1));
    }, null));
    assertEquals(1, calls.get(), "Exception does not name CircuitOpenException");

    ResilientCall named = guard(LambdaCalls.builder("C.n").with(RetryConfig.builder("C.n").maxAttempts(2)
        .delay("100ms").jitter(Retry.Jitter.NONE).on(CircuitOpenException.class)));
    long start = clock.nanoTime();
    calls.set(0);
    String result = LambdaCalls.call(named, () -> {
      if (calls.incrementAndGet() == 1) {
        throw new CircuitOpenException("deeper", Duration.ofSeconds(2));
      }
      return "after the open window";
    }, null);
    assertEquals("after the open window", result);
    assertTrue(clock.nanoTime() - start >= Duration.ofSeconds(2).toNanos(), "waited at least retryAfter");
  }

  @Test
  void aRetryAfterHintRaisesTheWaitButNoFurtherThanMaxRetryAfter() throws Throwable {
    ResilientCall guard = guard(call().with(retry().maxAttempts(2).maxRetryAfter("5s")));
    long start = clock.nanoTime();
    AtomicInteger calls = new AtomicInteger();

    LambdaCalls.call(guard, () -> {
      if (calls.incrementAndGet() == 1) {
        throw new Throttled(Duration.ofMinutes(10));
      }
      return "ok";
    }, null);

    assertEquals(Duration.ofSeconds(5).toNanos(), clock.nanoTime() - start);
  }

  @Test
  void maxDurationStopsBeforeABackoffThatWouldPassIt() {
    ResilientCall guard = guard(call().with(retry().maxAttempts(10).delay("1s").multiplier(1).maxDuration("2500ms")));
    AtomicInteger calls = new AtomicInteger();

    assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> {
      calls.incrementAndGet();
      throw new IOException("down");
    }, null));

    assertEquals(3, calls.get(), "attempts at 0s, 1s, 2s; a wait to 3s would pass 2.5s");
  }

  @Test
  void aResultTheOnResultPredicateRejectsIsRetriedAndTheLastOneReturned() throws Throwable {
    ResilientCall guard = guard(call().with(retry().onResult((String s) -> s.isEmpty())));
    AtomicInteger calls = new AtomicInteger();

    String result = LambdaCalls.call(guard, () -> {
      calls.incrementAndGet();
      return "";
    }, null);

    assertEquals("", result);
    assertEquals(3, calls.get());
  }

  @Test
  void interruptedDuringBackoffStopsRestoresTheFlagAndRethrowsTheLastFailure() {
    ResilientCall guard = guard(call().with(retry().maxAttempts(5)));
    AtomicInteger calls = new AtomicInteger();
    IOException first = new IOException("first");

    IOException thrown = assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> {
      calls.incrementAndGet();
      Thread.currentThread().interrupt();
      throw first;
    }, null));

    assertSame(first, thrown);
    assertEquals(1, calls.get());
    assertTrue(Thread.interrupted(), "interrupt flag restored");
  }

  @Test
  void aRetryBudgetThatIsEmptyEndsTheCallAtOnce() {
    Registry budgeted = Registry.builder().timeSource(clock)
        .retryBudget("shared", b -> b.percentCanRetry(0).minRetriesPerSecond(0)).build();
    List<Event> seen = new ArrayList<>();
    budgeted.subscribe(seen::add);
    ResilientCall guard = budgeted.resolve(call().with(retry().budget("shared")).build());
    AtomicInteger calls = new AtomicInteger();

    assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> {
      calls.incrementAndGet();
      throw new IOException("down");
    }, null));

    assertEquals(1, calls.get());
    assertTrue(seen.stream().anyMatch(e -> e.kind().equals("retry.budget_exhausted")));
  }

  @Test
  void interruptTimeoutInterruptsTheCallerAtTheDeadlineAndClearsOnlyItsOwnInterrupt() {
    ResilientCall guard = guard(call().with(TimeoutConfig.builder("C.m").duration("1s")));
    long start = clock.nanoTime();

    TimeoutExceededException timedOut = assertThrows(TimeoutExceededException.class, () -> LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofSeconds(5));
      return "too late";
    }, null));

    assertEquals(Duration.ofSeconds(1).toNanos(), clock.nanoTime() - start);
    assertEquals("C.m", timedOut.instance());
    assertFalse(Thread.currentThread().isInterrupted(), "Brace's interrupt is cleared");
    assertTrue(timedOut.getSuppressed()[0] instanceof InterruptedException);
    assertTrue(events.stream().anyMatch(e -> e.kind().equals("timeout.exceeded")));
  }

  @Test
  void aCallThatIgnoresTheInterruptAndReturnsLateIsStillTimedOut() {
    ResilientCall guard = guard(call().with(TimeoutConfig.builder("C.m").duration("1s")));

    assertThrows(TimeoutExceededException.class, () -> LambdaCalls.call(guard, () -> {
      try {
        clock.sleep(Duration.ofSeconds(5));
      } catch (InterruptedException ignoredByABadlyBehavedCall) {
        // returns a value anyway
      }
      return "late value";
    }, null));
    assertFalse(Thread.currentThread().isInterrupted());
  }

  @Test
  void aCallWithinItsDeadlineIsNotDisturbed() throws Throwable {
    ResilientCall guard = guard(call().with(TimeoutConfig.builder("C.m").duration("1s")));

    assertEquals("fast", LambdaCalls.call(guard, () -> {
      clock.sleep(Duration.ofMillis(999));
      return "fast";
    }, null));
    clock.advance(Duration.ofSeconds(5));
    assertFalse(Thread.currentThread().isInterrupted(), "the cancelled deadline never fires");
  }

  @Test
  void abandonTimeoutReleasesTheCallerAtTheDeadlineAndInterruptsTheWorker() throws Exception {
    ResilientCall guard = guard(call().with(TimeoutConfig.builder("C.m").duration("1s").mode(Timeout.Mode.ABANDON)));
    CountDownLatch workerStarted = new CountDownLatch(1);
    CompletableFuture<Boolean> workerInterrupted = new CompletableFuture<>();
    CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
      try {
        LambdaCalls.call(guard, () -> {
          workerStarted.countDown();
          try {
            new CountDownLatch(1).await();
          } catch (InterruptedException expected) {
            workerInterrupted.complete(true);
          }
          return "never";
        }, null);
        return null;
      } catch (Throwable thrown) {
        return thrown;
      }
    });
    assertTrue(workerStarted.await(10, TimeUnit.SECONDS));
    clock.advance(Duration.ofSeconds(1));

    assertTrue(outcome.get(10, TimeUnit.SECONDS) instanceof TimeoutExceededException);
    assertTrue(workerInterrupted.get(10, TimeUnit.SECONDS));
  }

  @Test
  void fallbackAnswersMatchingFailuresAndAFailingFallbackCarriesTheOriginal() throws Throwable {
    ResilientCall guard = guard(call().with(FallbackConfig.builder("C.m").on(IOException.class)));

    assertEquals("cached", LambdaCalls.call(guard, () -> {
      throw new IOException("down");
    }, failure -> "cached"));
    assertThrows(IllegalStateException.class, () -> LambdaCalls.call(guard, () -> {
      throw new IllegalStateException("not answered");
    }, failure -> "cached"));

    IOException original = new IOException("down");
    IllegalArgumentException fallbackFailure = assertThrows(IllegalArgumentException.class,
        () -> LambdaCalls.call(guard, () -> {
          throw original;
        }, failure -> {
          throw new IllegalArgumentException("fallback broke");
        }));
    assertSame(original, fallbackFailure.getSuppressed()[0]);
    assertTrue(events.stream().anyMatch(e -> e.kind().equals("fallback.used")));
  }

  @Test
  void fallbackAnswersRefusalsToo() throws Throwable {
    ResilientCall guard = guard(call().with(FallbackConfig.builder("C.m")));

    assertEquals("default", LambdaCalls.call(guard, () -> {
      throw new RateLimitedException("api", Duration.ofSeconds(1), null);
    }, failure -> "default"));
  }

  @Test
  void interruptedDuringALaterBackoffRethrowsTheLastFailureWithTheEarlierOnesAttached() {
    ResilientCall guard = guard(call().with(retry().maxAttempts(5)));
    AtomicInteger calls = new AtomicInteger();
    IOException first = new IOException("first");
    IOException second = new IOException("second");

    IOException thrown = assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> {
      if (calls.incrementAndGet() == 1) {
        throw first;
      }
      Thread.currentThread().interrupt();
      throw second;
    }, null));

    assertSame(second, thrown);
    assertArrayEquals(new Throwable[] {first}, thrown.getSuppressed(), "the interrupted wait keeps what came before");
    assertEquals(2, calls.get());
    assertTrue(Thread.interrupted(), "interrupt flag restored");
  }

  @Test
  void interruptedDuringTheBackoffOfARetriedResultReturnsThatResultAndKeepsTheFlag() throws Throwable {
    ResilientCall guard = guard(call().with(retry().maxAttempts(5).onResult((String s) -> s.equals("busy"))));
    AtomicInteger calls = new AtomicInteger();

    String result = LambdaCalls.call(guard, () -> {
      calls.incrementAndGet();
      Thread.currentThread().interrupt();
      return "busy";
    }, null);

    assertEquals("busy", result);
    assertEquals(1, calls.get(), "no attempt after the interrupted wait");
    assertTrue(Thread.interrupted(), "interrupt flag restored");
  }

  @Test
  void switchedOffACallRunsOnceAsItIsWithoutKeysOrFallback() {
    Registry off = Registry.builder().timeSource(clock).environment(Map.of("BRACE_ENABLED", "false")).build();
    ResilientCall guard = off.resolve(call().with(retry()).with(FallbackConfig.builder("C.m")).build());
    AtomicInteger calls = new AtomicInteger();
    IOException down = new IOException("down");

    IOException thrown = assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> {
      throw new IllegalStateException("keys are never computed when Brace is off");
    }, () -> {
      calls.incrementAndGet();
      throw down;
    }, failure -> "fallback"));

    assertSame(down, thrown, "the delegate's own exception, as itself");
    assertEquals(1, calls.get(), "not retried");
    assertEquals(0, clock.nanoTime() - 1_000_000_000L, "no backoff slept");
  }

  /** A user exception built from an HTTP Retry-After header. */
  private static final class Throttled extends Exception implements RetryAfterHint {
    private static final long serialVersionUID = 1L;
    private final Duration retryAfter;

    Throttled(Duration retryAfter) {
      super("429");
      this.retryAfter = retryAfter;
    }

    @Override
    public Optional<Duration> retryAfter() {
      return Optional.of(retryAfter);
    }
  }
}
