package dev.brace.runtime.internal.policy;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.config.RateLimitConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Does a failure say the dependency throttles, and for how long it asked to be left alone: the
 * decision behind an adaptive rate limiter. A failure of the limiter's {@code throttledOn} types, or
 * caused by one (as every filter reads causes, {@link ExceptionFilter}), or any carrying a
 * retry-after hint longer than zero ({@link RetryAfterHints}: a {@code RetryAfterHint}, or a client
 * framework's exception with a {@code Retry-After} header), throttles; the hint, capped by the
 * call's {@code maxRetryAfter}, is how long the bucket admits nothing.
 */
public final class Throttling {
  /** Returned by {@link #judge} for a failure that does not throttle. */
  public static final long NOT_THROTTLED = -1;

  private final ExceptionFilter throttledOn;
  private final long maxRetryAfterNanos;
  private final RetryAfterHints hints;

  /**
   * @param config an adaptive limiter's settings
   * @param maxRetryAfter the longest a hint may block the bucket (the call's {@code @Retry(maxRetryAfter)})
   * @param wallClock the registry's wall clock, which a {@code Retry-After} HTTP date is measured against
   */
  public Throttling(RateLimitConfig config, Duration maxRetryAfter, Clock wallClock) {
    this.throttledOn = new ExceptionFilter(Objects.requireNonNull(config, "config").throttledOn(), List.of());
    this.maxRetryAfterNanos = RetryPolicy.saturatedNanos(Objects.requireNonNull(maxRetryAfter, "maxRetryAfter"));
    this.hints = new RetryAfterHints(wallClock);
  }

  /**
   * @param failure what an attempt threw
   * @return {@link #NOT_THROTTLED}; or the nanoseconds the bucket admits nothing (0 without a hint)
   */
  public long judge(Throwable failure) {
    long hint = hints.hintNanos(failure);
    if (hint > 0) {
      return Math.min(hint, maxRetryAfterNanos);
    }
    return throttledOn.matches(failure) ? 0 : NOT_THROTTLED;
  }
}
