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
 * async wrappers and a framework's own wrapping are looked through. The walk stops after {@value
 * #MAX_DEPTH} throwables, at a cycle, and at a Brace refusal met as the cause of another exception:
 * that is another call's refusal, inside a delegate, as the exception filters judge it too; as the
 * failure itself (below its async wrappers) a refusal's hint counts.
 *
 * <p>Thread-safe and stateless apart from the registry's wall clock, which an HTTP date is measured
 * against.
 */
public final class RetryAfterHints {
  /** Returned by {@link #hintNanos} for a failure that names no time. */
  public static final long NONE = -1;

  /** How many throwables of a cause chain are looked at, the failure itself included. */
  static final int MAX_DEPTH = 16;

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
    Throwable[] seen = null;
    Throwable current = failure == null ? null : ExceptionFilter.unwrap(failure);
    for (int depth = 0; current != null && depth < MAX_DEPTH; depth++) {
      Duration hint = hintOf(current);
      if (hint != null) {
        return RetryPolicy.saturatedNanos(hint);
      }
      Throwable cause = current.getCause();
      if (cause == current || cause instanceof Refusal) {
        break;
      }
      if (seen == null) {
        seen = new Throwable[MAX_DEPTH];
      }
      seen[depth] = current;
      if (contains(seen, depth, cause)) {
        break;
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

  private static boolean contains(Throwable[] seen, int last, Throwable candidate) {
    for (int i = 0; i <= last; i++) {
      if (seen[i] == candidate) {
        return true;
      }
    }
    return false;
  }
}
