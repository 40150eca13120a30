package dev.brace.runtime.internal.policy;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.RetryAfterHint;
import dev.brace.runtime.config.RateLimitConfig;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Does a failure say the dependency throttles, and for how long it asked to be left alone: the
 * decision behind an adaptive rate limiter. A failure of the limiter's {@code throttledOn} types, or
 * caused by one (as every filter reads causes, {@link ExceptionFilter}), or any carrying a {@link
 * RetryAfterHint} with a hint, throttles; the hint, capped by the call's {@code maxRetryAfter}, is
 * how long the bucket admits nothing.
 */
public final class Throttling {
  /** Returned by {@link #judge} for a failure that does not throttle. */
  public static final long NOT_THROTTLED = -1;

  private final ExceptionFilter throttledOn;
  private final long maxRetryAfterNanos;

  /**
   * @param config an adaptive limiter's settings
   * @param maxRetryAfter the longest a hint may block the bucket (the call's {@code @Retry(maxRetryAfter)})
   */
  public Throttling(RateLimitConfig config, Duration maxRetryAfter) {
    this.throttledOn = new ExceptionFilter(Objects.requireNonNull(config, "config").throttledOn(), List.of());
    this.maxRetryAfterNanos = RetryPolicy.saturatedNanos(Objects.requireNonNull(maxRetryAfter, "maxRetryAfter"));
  }

  /**
   * @param failure what an attempt threw
   * @return {@link #NOT_THROTTLED}; or the nanoseconds the bucket admits nothing (0 without a hint)
   */
  public long judge(Throwable failure) {
    Throwable cause = ExceptionFilter.unwrap(failure);
    long hint = hintNanos(cause);
    if (hint > 0) {
      return hint;
    }
    return throttledOn.matches(cause) ? 0 : NOT_THROTTLED;
  }

  private long hintNanos(Throwable cause) {
    if (!(cause instanceof RetryAfterHint)) {
      return 0;
    }
    Optional<Duration> hint = ((RetryAfterHint) cause).retryAfter();
    if (hint == null || hint.isEmpty() || hint.get().isNegative() || hint.get().isZero()) {
      return 0;
    }
    return Math.min(RetryPolicy.saturatedNanos(hint.get()), maxRetryAfterNanos);
  }
}
