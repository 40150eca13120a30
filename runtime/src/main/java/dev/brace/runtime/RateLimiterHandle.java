package dev.brace.runtime;

/** A rate limiter of a {@link Registry}, for introspection and tests. */
public interface RateLimiterHandle {

  /** @return the limiter's name (with its key, for one bucket of a keyed family) */
  String name();

  /** @return whole tokens available now (0 while callers are queued for future tokens) */
  long availablePermits();

  /**
   * @return the tokens added every {@code per} now: {@code permits}, or where an adaptive
   *     limiter's rate stands after the dependency's throttling
   */
  double currentRate();

  /**
   * Empties the bucket and holds it empty until {@link #releaseForced()}: every call is refused as if no
   * token could arrive within its {@code maxWait}, however much time passes. For tests and operators.
   *
   * @throws UnsupportedOperationException when this limiter's state is kept where it cannot be
   *     forced (a shared backend)
   */
  default void forceEmpty() {
    throw new UnsupportedOperationException("rate limiter '" + name() + "' cannot be forced empty");
  }

  /**
   * Ends {@link #forceEmpty()}: the bucket is full ({@code burst} tokens) now, and refills go on at
   * the configured rate. On a limiter that was not forced it fills the bucket all the same.
   *
   * @throws UnsupportedOperationException when this limiter's state is kept where it cannot be
   *     forced (a shared backend)
   */
  default void releaseForced() {
    throw new UnsupportedOperationException("rate limiter '" + name() + "' cannot be forced empty");
  }

  /**
   * @return false while the {@link Backend} that keeps this limiter's state cannot be reached, so its
   *     calls are decided by the backend's fallback (local state, or refusal; {@link
   *     BackendStatus#fallback()}); true otherwise, and always for a limiter whose state is in this JVM
   */
  default boolean backendAvailable() {
    return true;
  }
}
