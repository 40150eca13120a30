package dev.brace.examples.capacity;

import dev.brace.runtime.RetryAfterHint;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/** An HTTP 429 from the service, with its {@code Retry-After}: what an adaptive limiter backs off on. */
public final class TooManyRequestsException extends IOException implements RetryAfterHint {
  private static final long serialVersionUID = 1L;

  private final transient Duration retryAfter;

  /**
   * @param message what happened
   * @param retryAfter the service's {@code Retry-After}, or null when it sent none
   */
  public TooManyRequestsException(String message, Duration retryAfter) {
    super(message);
    this.retryAfter = retryAfter;
  }

  @Override
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
