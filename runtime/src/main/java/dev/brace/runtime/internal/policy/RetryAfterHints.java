package dev.brace.runtime.internal.policy;

import dev.brace.runtime.Refusal;
import dev.brace.runtime.RetryAfterHint;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.http.FrameworkRetryAfter;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The one answer to "when did this failure say to try again?", which the retry ({@link
 * RetryPolicy}: wait at least that long) and an adaptive limiter ({@link Throttling}: admit nothing
 * until then) both act on. A failure carries a hint when it, or one of its causes, is a {@link
 * RetryAfterHint} with a hint or an HTTP client framework's exception whose response had a {@code
 * Retry-After} header ({@link FrameworkRetryAfter}); the first such in the cause chain decides, so
 * async wrappers and a framework's own wrapping are looked through. As for the exception filters,
 * the walk starts below the async wrappers and stops {@link ExceptionFilter#MAX_CAUSE_DEPTH} causes
 * deep, at a cause seen before, and at a Brace refusal met as the cause of another exception (that
 * is another call's refusal, inside a delegate); as the failure itself a refusal's hint counts.
 *
 * <p>Thread-safe and stateless apart from the registry's wall clock, which an HTTP date is measured
 * against.
 */
public final class RetryAfterHints {
  /** Returned by {@link #hintNanos} for a failure that names no time. */
  public static final long NONE = -1;

  private final Clock wallClock;

  /** @param wallClock the registry's wall clock: "now" for a {@code Retry-After} HTTP date */
  public RetryAfterHints(Clock wallClock) {
    this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
  }

  /**
   * @param failure what an attempt threw; may be null
   * @return the hinted wait in nanoseconds (saturated; zero for "now" or a date past), or {@link
   *     #NONE}
   */
  public long hintNanos(Throwable failure) {
    Throwable thrown = failure == null ? null : ExceptionFilter.unwrap(failure);
    Throwable current = thrown;
    for (int depth = 0; current != null; depth++) {
      Duration hint = hintOf(current);
      if (hint != null) {
        return RetryPolicy.saturatedNanos(hint);
      }
      Throwable cause = current.getCause();
      if (depth == ExceptionFilter.MAX_CAUSE_DEPTH || cause instanceof Refusal || loops(thrown, depth, cause)) {
        return NONE;
      }
      current = cause;
    }
    return NONE;
  }

  private Duration hintOf(Throwable failure) {
    if (failure instanceof RetryAfterHint) {
      Optional<Duration> hint = ((RetryAfterHint) failure).retryAfter();
      if (hint != null && hint.isPresent() && !hint.get().isNegative()) {
        return hint.get();
      }
    }
    return FrameworkRetryAfter.of(failure, wallClock);
  }

  /** Whether {@code cause} is one of the first {@code depth + 1} throwables from {@code thrown}. */
  private static boolean loops(Throwable thrown, int depth, Throwable cause) {
    Throwable earlier = thrown;
    for (int i = 0; i <= depth && earlier != null; i++) {
      if (earlier == cause) {
        return true;
      }
      earlier = earlier.getCause();
    }
    return false;
  }
}
