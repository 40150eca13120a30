package dev.brace.runtime.spi;

import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.ExceptionFilter;
import java.util.function.Predicate;

/**
 * Which outcomes of a call a circuit breaker counts as failures: an exception matching
 * {@code on} and not {@code ignore}, itself or through its causes ({@link ExceptionFilter}), never
 * an {@link Error}; a result for which {@code onResult}
 * is true. And, when the breaker judges latency ({@code slowCall}), which outcomes are slow. The
 * one place this is decided, for local and shared breakers alike.
 */
public final class OutcomeClassifier {
  /** The duration of an outcome nobody timed: never slow. */
  public static final long NOT_TIMED = -1;

  private final ExceptionFilter filter;
  private final Predicate<Object> onResult;
  /** Zero when latency is not judged. */
  private final long slowCallNanos;

  /** @param config the breaker's settings */
  public OutcomeClassifier(CircuitBreakerConfig config) {
    this.filter = new ExceptionFilter(config.on(), config.ignore());
    this.onResult = config.onResult();
    this.slowCallNanos = config.slowCall().toNanos();
  }

  /** @return whether attempts must be timed: the breaker judges latency */
  public boolean timesAttempts() {
    return slowCallNanos > 0;
  }

  /**
   * @param elapsedNanos how long the attempt took, or {@link #NOT_TIMED}
   * @return whether it took longer than {@code slowCall}; always false when latency is not judged
   */
  public boolean isSlow(long elapsedNanos) {
    return slowCallNanos > 0 && elapsedNanos > slowCallNanos;
  }

  /**
   * @param failure what a call threw (async wrappers are looked through, causes read)
   * @return whether it is a counted failure; false means the call leaves the state as it is
   */
  public boolean counts(Throwable failure) {
    return !(ExceptionFilter.unwrap(failure) instanceof Error) && filter.matches(failure);
  }

  /**
   * @param result what a call returned; may be null
   * @return whether the result predicate counts it as a failure
   * @throws RuntimeException what the predicate threw
   */
  public boolean resultCounts(Object result) {
    return onResult != null && onResult.test(result);
  }
}
