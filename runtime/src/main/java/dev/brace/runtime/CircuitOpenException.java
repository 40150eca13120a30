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

  private CircuitOpenException(String instance, String message, Throwable cause) {
    super(instance, message, cause);
    this.retryAfter = null;
  }

  /**
   * A breaker configured to refuse while the backend holding its shared state cannot be reached.
   * The dependency's health is unknown then, so nothing is said about when to try again.
   *
   * @param instance the breaker's name
   * @param backend the backend's name, e.g. {@code "redis"}
   * @param cause why the backend could not be reached, or {@code null}
   * @return the refusal, naming both
   */
  public static CircuitOpenException backendUnavailable(String instance, String backend, Throwable cause) {
    return new CircuitOpenException(
        instance,
        "circuit breaker '" + instance + "' refuses calls: its backend '" + backend + "' is unavailable",
        cause);
  }

  @Override
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
