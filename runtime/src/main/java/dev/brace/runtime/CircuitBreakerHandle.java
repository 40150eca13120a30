package dev.brace.runtime;

import java.time.Duration;
import java.util.Optional;

/** A circuit breaker of a {@link Registry}, for health checks, introspection and tests. */
public interface CircuitBreakerHandle {

  /** @return the breaker's name (with its key, for one breaker of a keyed family) */
  String name();

  /** @return the state as stored; reading it never moves it (OPEN→HALF_OPEN is lazy) */
  CircuitState state();

  /** Closes the circuit and forgets every recorded outcome; ends {@link #forceOpen} and {@link #forceClosed}. */
  void reset();

  /**
   * Opens the circuit and holds it open until {@link #reset()}: every call is refused (with no
   * {@code retryAfter}), and no probe is admitted however much time passes. For tests and
   * operators; reported as {@code circuit.opened} with {@code forced=true}.
   *
   * @throws UnsupportedOperationException when this breaker's state is kept where it cannot be
   *     forced (a shared backend)
   */
  default void forceOpen() {
    throw new UnsupportedOperationException("circuit breaker '" + name() + "' cannot be forced open");
  }

  /**
   * Closes the circuit and holds it closed until {@link #reset()}: every call is admitted, and
   * outcomes are still counted but none opens it. For tests and operators.
   *
   * @throws UnsupportedOperationException when this breaker's state is kept where it cannot be
   *     forced (a shared backend)
   */
  default void forceClosed() {
    throw new UnsupportedOperationException("circuit breaker '" + name() + "' cannot be forced closed");
  }

  /** @return the time until a probe is admitted while OPEN; empty otherwise */
  Optional<Duration> retryAfter();

  /**
   * @return false while the {@link Backend} that keeps this breaker's state cannot be reached, so its
   *     calls are decided by the backend's fallback (local state, or refusal; {@link
   *     BackendStatus#fallback()}); true otherwise, and always for a breaker whose state is in this JVM
   */
  default boolean backendAvailable() {
    return true;
  }
}
