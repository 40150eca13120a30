package dev.brace.examples;

import dev.brace.runtime.RetryAfterHint;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The service answered 503 Service Unavailable. Its {@code Retry-After} header, when present,
 * becomes a {@link RetryAfterHint}: a {@code @Retry} then waits at least that long (capped by its
 * {@code maxRetryAfter}) instead of hammering a service that asked for a pause.
 */
public final class ServiceUnavailableException extends IOException implements RetryAfterHint {
  private static final long serialVersionUID = 1L;

  private final transient Duration retryAfter;

  /**
   * A 503 without {@code Retry-After}; also the constructor fault injection makes it with
   * ({@code BRACE_CHAOS_<NAME>_FAULT=dev.brace.examples.ServiceUnavailableException}).
   *
   * @param message what happened
   */
  public ServiceUnavailableException(String message) {
    this(message, null);
  }

  /**
   * @param message what happened
   * @param retryAfter the service's {@code Retry-After}, or null when it sent none
   */
  public ServiceUnavailableException(String message, Duration retryAfter) {
    super(message);
    this.retryAfter = retryAfter;
  }

  @Override
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
