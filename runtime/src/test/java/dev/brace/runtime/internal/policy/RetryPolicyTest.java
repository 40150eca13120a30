package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.Event;
import dev.brace.runtime.CountingClock;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RetryAfterHint;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a retry decides after a failed attempt or a retried result, and what it reports: the wait,
 * the {@code maxDuration} boundary, the budget it deposits into, and the attributes of {@code
 * retry.attempt_failed} and {@code retry.exhausted} (manual time).
 */
class RetryPolicyTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private final ManualTimeSource clock = new ManualTimeSource();
  private final RecordedEvents events = new RecordedEvents();

  private RetryConfig.Builder fixedWait() {
    return RetryConfig.builder("reads").delay("100ms").multiplier(1.0).jitter(Retry.Jitter.NONE);
  }

  private RetryPolicy policy(RetryConfig.Builder config, RetryBudget budget) {
    return new RetryPolicy(config.build(), "Client.get", clock, events.bus(), budget);
  }

  @Test
  void aResultRetriedByThePredicateWaitsTheBackoffAndIsReportedWithIt() {
    RetryPolicy policy = policy(fixedWait().maxAttempts(3).onResult(result -> result == null), null);
    RetryRun run = policy.continuing(null);

    assertEquals(100 * MS, policy.decideOnResult(run, 1, policy.begin()));

    Event failed = events.last();
    assertEquals("retry.attempt_failed", failed.kind());
    assertEquals("reads", failed.instance());
    assertEquals(Map.of("call", "Client.get", "attempt", 1, "result", "retried by onResult", "delay_ms", 100L),
        failed.attributes());
    assertTrue(events.of("retry.exhausted").isEmpty(), "attempts remain");
  }

  @Test
  void aResultRetriedOnTheLastAttemptEndsTheRetryWithoutAWait() {
    RetryPolicy policy = policy(fixedWait().maxAttempts(3).onResult(result -> result == null), null);
    RetryRun run = policy.continuing(null);

    assertEquals(RetryPolicy.STOP, policy.decideOnResult(run, 3, policy.begin()));

    Event failed = events.of("retry.attempt_failed").get(0);
    assertEquals(Map.of("call", "Client.get", "attempt", 3, "result", "retried by onResult"), failed.attributes(),
        "no delay_ms: no retry follows");
    List<Event> exhausted = events.of("retry.exhausted");
    assertEquals(1, exhausted.size());
    assertEquals(Map.of("call", "Client.get", "attempts", 3, "reason", "attempts"), exhausted.get(0).attributes(),
        "a result, not an exception, ended it");
  }

  @Test
  void aRetryThatWouldStartExactlyAtMaxDurationIsStillMade() {
    RetryPolicy policy = policy(fixedWait().delay("500ms").maxAttempts(5).maxDuration("1s"), null);
    RetryRun run = policy.continuing(null);
    long started = policy.begin();

    clock.advance(Duration.ofMillis(500));
    assertEquals(500 * MS, policy.decide(run, 1, started, new IOException("down")),
        "500 ms spent and a 500 ms wait: the next attempt starts at 1 s, not past it");
    assertTrue(events.of("retry.exhausted").isEmpty());
  }

  @Test
  void aRetryThatWouldStartPastMaxDurationEndsTheCallWithThatReason() {
    RetryPolicy policy = policy(fixedWait().delay("500ms").maxAttempts(5).maxDuration("1s"), null);
    RetryRun run = policy.continuing(null);
    long started = policy.begin();

    clock.advance(Duration.ofNanos(500 * MS + 1));
    IOException failure = new IOException("down");
    assertEquals(RetryPolicy.STOP, policy.decide(run, 1, started, failure));

    Event failed = events.of("retry.attempt_failed").get(0);
    assertFalse(failed.attributes().containsKey("delay_ms"), "no retry follows");
    Event exhausted = events.of("retry.exhausted").get(0);
    assertEquals(Map.of("call", "Client.get", "attempts", 1, "reason", "maxDuration",
        "exception", "java.io.IOException", "message", "down"), exhausted.attributes());
  }

  @Test
  void aResultRetriedPastMaxDurationEndsTheRetryWithThatReason() {
    RetryPolicy policy = policy(
        fixedWait().delay("500ms").maxAttempts(5).maxDuration("1s").onResult(result -> true), null);
    RetryRun run = policy.continuing(null);
    long started = policy.begin();

    clock.advance(Duration.ofMillis(501));
    assertEquals(RetryPolicy.STOP, policy.decideOnResult(run, 1, started));
    assertEquals("maxDuration", events.of("retry.exhausted").get(0).attributes().get("reason"));
  }

  @Test
  void withoutMaxDurationNoRetryIsStoppedForTimeHoweverLongTheCallHasRun() {
    RetryPolicy policy = policy(fixedWait().maxAttempts(3), null);
    RetryRun run = policy.continuing(null);
    long started = policy.begin();

    clock.advance(Duration.ofDays(10));
    assertEquals(100 * MS, policy.decide(run, 1, started, new IOException("down")));
    assertEquals(100 * MS, policy.decideOnResult(run, 2, started));
    assertTrue(events.of("retry.exhausted").isEmpty());
  }

  @Test
  void everyCallDepositsIntoTheBudgetItsRetriesWithdrawFrom() {
    RetryBudget budget = new RetryBudget("shared", 0.5, 0, Duration.ofSeconds(10), clock);
    RetryPolicy policy = policy(fixedWait().maxAttempts(3), budget);

    for (int call = 0; call < 4; call++) {
      policy.begin();
    }

    assertEquals(2, budget.available(), "half of the 4 calls may be retried");
    RetryRun run = policy.continuing(null);
    assertEquals(100 * MS, policy.decide(run, 1, 0, new IOException("one")));
    assertEquals(100 * MS, policy.decide(run, 1, 0, new IOException("two")));
    assertEquals(RetryPolicy.STOP, policy.decide(run, 1, 0, new IOException("three")));
    Event exhausted = events.of("retry.budget_exhausted").get(0);
    assertEquals("budget", exhausted.attributes().get("reason"));
    assertEquals("shared", exhausted.attributes().get("budget"));
  }

  @Test
  void aRetryWithoutMaxDurationDoesNotReadTheClockWhenTheCallStarts() {
    CountingClock counting = new CountingClock(clock);
    clock.advance(Duration.ofSeconds(1));
    RetryPolicy unbounded = new RetryPolicy(fixedWait().build(), "Client.get", counting, events.bus(), null);
    RetryPolicy bounded = new RetryPolicy(fixedWait().maxDuration("5s").build(), "Client.get", counting, events.bus(), null);

    assertFalse(unbounded.measuresDuration());
    assertEquals(0, unbounded.begin());
    assertEquals(0, counting.reads(), "nothing will compare against the start instant");
    assertTrue(bounded.measuresDuration());
    assertEquals(clock.nanoTime(), bounded.begin());
    assertEquals(1, counting.reads());
  }

  @Test
  void aFailureTheRetryDoesNotHandleIsReportedWithoutAWaitWhateverItsHint() {
    RetryPolicy policy = policy(fixedWait().maxAttempts(3).on(IllegalStateException.class), null);
    RetryRun run = policy.continuing(null);

    IOException notRetried = new Hinted(Duration.ofSeconds(2));
    assertEquals(RetryPolicy.STOP, policy.decide(run, 1, 0, notRetried));

    Event failed = events.last();
    assertEquals("retry.attempt_failed", failed.kind());
    assertFalse(failed.attributes().containsKey("delay_ms"), "not retried: no wait, whatever the hint");
    assertTrue(events.of("retry.exhausted").isEmpty(), "an exception the retry does not handle exhausts nothing");
  }

  @Test
  void aHintLongerThanMaxRetryAfterWaitsOnlyMaxRetryAfter() {
    RetryPolicy policy = policy(fixedWait().maxAttempts(3).maxRetryAfter("1s"), null);
    RetryRun run = policy.continuing(null);

    assertEquals(1_000 * MS, policy.decide(run, 1, 0, new Hinted(Duration.ofSeconds(30))));
  }

  @Test
  void aNegativeOrEmptyHintLeavesTheBackoffAlone() {
    RetryPolicy policy = policy(fixedWait().maxAttempts(3), null);
    RetryRun run = policy.continuing(null);

    assertEquals(100 * MS, policy.decide(run, 1, 0, new Hinted(Duration.ofSeconds(-5))));
    assertEquals(100 * MS, policy.decide(run, 2, 0, new Hinted(null)));
  }

  /** An I/O failure that carries a retry-after hint, or none when {@code hint} is null. */
  private static final class Hinted extends IOException implements RetryAfterHint {
    private final Duration hint;

    Hinted(Duration hint) {
      super("slow down");
      this.hint = hint;
    }

    @Override
    public Optional<Duration> retryAfter() {
      return Optional.ofNullable(hint);
    }
  }
}
