package dev.brace.runtime;

import java.time.Duration;
import java.util.Optional;

/** Refused by a rate limiter: no token now, and none could arrive within its {@code maxWait}. */
public final class RateLimitedException extends Refusal implements RetryAfterHint {
  private static final long serialVersionUID = 1L;

  private final transient Duration retryAfter;

  /**
   * @param instance the limiter's name
   * @param retryAfter time until a token is available, or {@code null} when unknown
   * @param cause an interrupt that stopped the wait, or {@code null}
   */
  public RateLimitedException(String instance, Duration retryAfter, Throwable cause) {
    super(
        instance,
        cause != null
            ? "rate limiter '" + instance + "' was interrupted while waiting for a token"
            : "rate limiter '" + instance + "' has no token; next in "
                + (retryAfter == null ? "?" : retryAfter.toMillis() + " ms"),
        cause);
    this.retryAfter = retryAfter;
  }

  private RateLimitedException(String instance, String message, Throwable cause) {
    super(instance, message, cause);
    this.retryAfter = null;
  }

  /**
   * A limiter configured to refuse while the backend holding its shared bucket cannot be reached.
   *
   * @param instance the limiter's name
   * @param backend the backend's name, e.g. {@code "redis"}
   * @param cause why the backend could not be reached, or {@code null}
   * @return the refusal, naming both
   */
  public static RateLimitedException backendUnavailable(String instance, String backend, Throwable cause) {
    return new RateLimitedException(
        instance,
        "rate limiter '" + instance + "' refuses calls: its backend '" + backend + "' is unavailable",
        cause);
  }

  @Override
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
