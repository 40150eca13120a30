package dev.brace.runtime;

import java.time.Duration;
import java.util.Optional;

/**
 * An exception that knows when trying again makes sense: Brace's own refusals, or a user's
 * exception built from an HTTP {@code Retry-After} header. A {@code @Retry} waits at least this
 * long (plus a small safety margin) before its next attempt, capped by its {@code maxRetryAfter}.
 */
public interface RetryAfterHint {

  /**
   * @return how long until a new attempt can succeed, or empty when unknown
   */
  Optional<Duration> retryAfter();
}
