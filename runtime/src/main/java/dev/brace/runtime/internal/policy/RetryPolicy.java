package dev.brace.runtime.internal.policy;

import dev.brace.Retry;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.Refusal;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * The one place a retry decides: is this failure (or result) retried, are attempts or time or
 * budget exhausted, and how long to wait. Stateless apart from the shared budget; per-call state
 * lives in a {@link RetryRun}. The sync driver sleeps the returned delay, the async driver
 * schedules it; neither decides anything.
 *
 * <p>Under a caller's deadline no backoff starts that would end past it: the retry stops as it
 * does at {@code maxDuration}, and the last failure ends the call.
 */
public final class RetryPolicy {
  /** Waits past a hint by a little, so the retry lands after the hinted instant, not on it. */
  private static final long HINT_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /** Returned by {@link #decide} when the call must end. */
  public static final long STOP = -1;

  private final RetryConfig config;
  /** The call this retry belongs to, for events; its name may differ when configured apart. */
  private final String callName;
  private final TimeSource time;
  private final EventBus events;
  /** Failed attempts, retried or not, for a bound metrics listener. */
  private final BoundMetrics<InstanceMetrics> metrics;
  private final RetryBudget budget;
  private final ExceptionFilter filter;
  private final RetryAfterHints hints;
  private final long delayNanos;
  private final long maxDelayNanos;
  private final long maxDurationNanos;
  private final long maxRetryAfterNanos;
  /** Draws the jitter; null for the calling thread's {@link ThreadLocalRandom}. */
  private final RandomGenerator random;
  /** What is left of the caller's deadline; null when the call takes no part in deadlines. */
  private final DeadlinePolicy deadlines;

  public RetryPolicy(RetryConfig config, String callName, TimeSource time, EventBus events, RetryBudget budget) {
    this(config, callName, time, events, budget, null, null);
  }

  /**
   * @param deadlines tells what is left of the caller's deadline at each decision; null when the
   *     call takes no part in deadlines
   */
  public RetryPolicy(
      RetryConfig config, String callName, TimeSource time, EventBus events, RetryBudget budget,
      DeadlinePolicy deadlines) {
    this(config, callName, time, events, budget, null, deadlines);
  }

  /**
   * As the public constructor, with the jitter drawn from {@code random}, so that a test can check
   * the jitter's distribution from a fixed seed. {@code random} is then used by one thread only.
   */
  RetryPolicy(
      RetryConfig config, String callName, TimeSource time, EventBus events, RetryBudget budget,
      RandomGenerator random) {
    this(config, callName, time, events, budget, random, null);
  }

  private RetryPolicy(
      RetryConfig config, String callName, TimeSource time, EventBus events, RetryBudget budget,
      RandomGenerator random, DeadlinePolicy deadlines) {
    this.random = random;
    this.deadlines = deadlines;
    this.config = Objects.requireNonNull(config, "config");
    this.callName = Objects.requireNonNull(callName, "callName");
    this.time = Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
    this.metrics = BoundMetrics.ofInstance(events, Kind.RETRY, config.name());
    this.budget = budget;
    this.filter = new ExceptionFilter(config.on(), config.ignore());
    this.hints = new RetryAfterHints(events.wallClock());
    this.delayNanos = saturatedNanos(config.delay());
    this.maxDelayNanos = saturatedNanos(config.maxDelay());
    this.maxDurationNanos = config.maxDuration().map(RetryPolicy::saturatedNanos).orElse(0L);
    this.maxRetryAfterNanos = saturatedNanos(config.maxRetryAfter());
  }

  /** @return the settings */
  public RetryConfig config() {
    return config;
  }

  /** @return the retry budget it withdraws from and its calls deposit into, or null */
  public RetryBudget budget() {
    return budget;
  }

  public long begin() {
    if (budget != null) {
      budget.deposit();
    }
    return maxDurationNanos > 0 ? time.nanoTime() : 0L;
  }

  /** @return whether {@link #begin} reads the clock: the retry has a {@code maxDuration} */
  public boolean measuresDuration() {
    return maxDurationNanos > 0;
  }

  /** @return {@code maxDuration} in nanoseconds; 0 for none */
  public long maxDurationNanos() {
    return maxDurationNanos;
  }

  /**
   * Whether a failure is retried at all: it matches {@code on}/{@code ignore} (itself or through
   * its causes), is not an {@link Error}, and is not a refusal unless that refusal's exact class is
   * named in {@code on}.
   */
  boolean eligible(Throwable failure) {
    return filter.callsForAnotherAttempt(failure);
  }

  /** @return whether the retry has a result predicate ({@code @Retry(onResult)}): some results may be retried */
  public boolean retriesResults() {
    return config.onResult() != null;
  }

  /** @return {@code run}, or a fresh run when this is the call's first retried outcome */
  public RetryRun continuing(RetryRun run) {
    return run != null ? run : new RetryRun(delayNanos);
  }

  public boolean retriesResult(Object result) {
    return config.onResult() != null && config.onResult().test(result);
  }

  /**
   * Decides after failed attempt {@code attempt}: the nanoseconds to wait before the next one, or
   * {@link #STOP}, in which case the earlier failures are already attached to {@code failure} as
   * suppressed and the matching events emitted.
   */
  public long decide(RetryRun run, int attempt, long started, Throwable failure) {
    Throwable cause = ExceptionFilter.unwrap(failure);
    if (cause instanceof Error) {
      // Errors leave at once, as they came: no event, nothing attached, in every driver.
      return STOP;
    }
    if (!eligible(failure)) {
      // Still a failed attempt for the record, unless a refusal, which is not an outcome of the
      // call.
      if (!(cause instanceof Refusal)) {
        emitAttemptFailed(attempt, STOP, failure);
      }
      run.attachEarlierFailuresTo(failure);
      return STOP;
    }
    long delay = attempt < config.maxAttempts() ? backoff(run, attempt, failure) : STOP;
    // Decided before reporting, so the attempt's event tells whether a retry follows.
    String stopReason = stopReason(attempt, started, delay);
    emitAttemptFailed(attempt, stopReason == null ? delay : STOP, failure);
    if (stopReason != null) {
      run.attachEarlierFailuresTo(failure);
      emitStopped(stopReason, attempt, failure);
      return STOP;
    }
    return delay;
  }

  /** As {@link #decide} for a result the predicate asks to retry; the result is then returned. */
  public long decideOnResult(RetryRun run, int attempt, long started) {
    long delay = attempt < config.maxAttempts() ? backoff(run, attempt, null) : STOP;
    String stopReason = stopReason(attempt, started, delay);
    reportAttemptFailed(stopReason == null);
    if (events.enabled(EventKind.RETRY_ATTEMPT_FAILED)) {
      events.emit(EventKind.RETRY_ATTEMPT_FAILED, config.name(), "call", callName, "attempt", attempt,
          "result", "retried by onResult", "delay_ms", stopReason != null ? null : TimeUnit.NANOSECONDS.toMillis(delay));
    }
    if (stopReason != null) {
      emitStopped(stopReason, attempt, null);
      return STOP;
    }
    return delay;
  }

  /** Why the call must stop although the failure is retryable, or null to go on. */
  private String stopReason(int attempt, long started, long delay) {
    if (delay == STOP) {
      return "attempts";
    }
    if (maxDurationNanos > 0 && time.nanoTime() - started + delay > maxDurationNanos) {
      return "maxDuration";
    }
    if (deadlines != null) {
      long left = deadlines.remainingNanos();
      // The next attempt would start when the deadline has passed, with no time to end before it.
      if (left != DeadlinePolicy.NONE && delay >= left) {
        return "deadline";
      }
    }
    if (budget != null && !budget.tryWithdraw()) {
      return "budget";
    }
    return null;
  }

  private void emitStopped(String reason, int attempt, Throwable failure) {
    EventKind kind = reason.equals("budget") ? EventKind.RETRY_BUDGET_EXHAUSTED : EventKind.RETRY_EXHAUSTED;
    if (events.enabled(kind)) {
      Throwable cause = failure == null ? null : ExceptionFilter.unwrap(failure);
      events.emit(kind, config.name(), "call", callName, "attempts", attempt, "reason", reason,
          "budget", budget == null ? null : budget.name(),
          "exception", cause == null ? null : cause.getClass().getName(),
          "message", cause == null ? null : cause.getMessage());
    }
  }

  /** {@code delay} is the wait before the next attempt, or {@link #STOP} when none follows. */
  private void emitAttemptFailed(int attempt, long delay, Throwable failure) {
    reportAttemptFailed(delay != STOP);
    if (events.enabled(EventKind.RETRY_ATTEMPT_FAILED)) {
      Throwable cause = ExceptionFilter.unwrap(failure);
      events.emit(EventKind.RETRY_ATTEMPT_FAILED, config.name(), "call", callName, "attempt", attempt,
          "delay_ms", delay == STOP ? null : TimeUnit.NANOSECONDS.toMillis(delay),
          "exception", cause.getClass().getName(), "message", cause.getMessage());
    }
  }

  private void reportAttemptFailed(boolean retried) {
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.attemptFailed(retried);
    }
  }

  /** The wait before retry {@code n} (n = the attempt that failed), raised to a retry-after hint. */
  long backoff(RetryRun run, int n, Throwable failure) {
    long cap = cap(n);
    long delay;
    Retry.Jitter jitter = config.jitter();
    switch (jitter) {
      case NONE:
        delay = cap;
        break;
      case FULL:
        delay = uniform(0, cap);
        break;
      case EQUAL:
        delay = cap / 2 + uniform(0, cap - cap / 2);
        break;
      case DECORRELATED:
        long upper = run.previousDelayNanos() > Long.MAX_VALUE / 3 ? Long.MAX_VALUE : 3 * run.previousDelayNanos();
        delay = Math.min(maxDelayNanos, uniform(delayNanos, Math.max(delayNanos, upper)));
        break;
      default:
        throw new IllegalStateException("unknown jitter " + jitter);
    }
    run.previousDelayNanos(delay);
    return Math.max(delay, hintedDelay(failure));
  }

  /** {@code min(maxDelay, delay · multiplier^(n-1))}, without overflow. */
  long cap(int n) {
    double grown = delayNanos * Math.pow(config.multiplier(), n - 1);
    return grown >= maxDelayNanos ? maxDelayNanos : (long) grown;
  }

  /** A failure's retry-after hint with a little margin, capped by {@code maxRetryAfter}; else 0. */
  private long hintedDelay(Throwable failure) {
    long hinted = hints.hintNanos(failure);
    if (hinted == RetryAfterHints.NONE) {
      return 0;
    }
    long withMargin = hinted + hinted / 20 + HINT_MARGIN_NANOS;
    return Math.min(withMargin < 0 ? Long.MAX_VALUE : withMargin, maxRetryAfterNanos);
  }

  private long uniform(long lowInclusive, long highInclusive) {
    if (highInclusive <= lowInclusive) {
      return lowInclusive;
    }
    RandomGenerator generator = random != null ? random : ThreadLocalRandom.current();
    if (highInclusive == Long.MAX_VALUE) {
      return generator.nextLong(lowInclusive, highInclusive);
    }
    return generator.nextLong(lowInclusive, highInclusive + 1);
  }

  public static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }
}
