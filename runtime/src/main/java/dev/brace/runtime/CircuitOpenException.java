package dev.brace.runtime;

import java.time.Duration;
import java.util.Optional;

/**
 * Refused by an open circuit breaker, or by a half-open one whose single probe is already in
 * flight. {@link #retryAfter()} is the time until a probe is admitted (empty while a probe runs).
 */
public final class CircuitOpenException extends Refusal implements RetryAfterHint {
  private static final long serialVersionUID = 1L;

  private final transient Duration retryAfter;

  /**
   * @param instance the breaker's name
   * @param retryAfter time until a probe is admitted, or {@code null} when unknown
   */
  public CircuitOpenException(String instance, Duration retryAfter) {
    super(
        instance,
        retryAfter == null
            ? "circuit breaker '" + instance + "' is half-open and its probe is in flight"
            : "circuit breaker '" + instance + "' is open; next probe in " + retryAfter.toMillis() + " ms",
        null);
    this.retryAfter = retryAfter;
  }

  @Override
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
