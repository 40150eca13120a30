package dev.brace.runtime;

import java.time.Duration;
import java.util.Optional;

/**
 * An exception that knows when trying again makes sense: Brace's own refusals, or a user's
 * exception built from an HTTP {@code Retry-After} header. A {@code @Retry} waits at least this
 * long (plus a small safety margin) before its next attempt, capped by its {@code maxRetryAfter};
 * an adaptive {@code @RateLimit} lowers its rate and admits nothing until then.
 *
 * <p>The failure or any of its causes may carry the hint; the first in the chain that does counts.
 * The exceptions of Spring's {@code RestClient}/{@code RestTemplate} ({@code
 * RestClientResponseException}) and {@code WebClient} ({@code WebClientResponseException}), of
 * Feign ({@code FeignException}) and of Retrofit ({@code HttpException}) need not implement this:
 * Brace reads the {@code Retry-After} header (seconds or HTTP date, against the registry's {@code
 * wallClock}) their failed response carried, without depending on any of them.
 */
public interface RetryAfterHint {

  /**
   * @return how long until a new attempt can succeed, or empty when unknown
   */
  Optional<Duration> retryAfter();
}
