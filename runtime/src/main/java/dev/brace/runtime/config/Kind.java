package dev.brace.runtime.config;

import java.util.Locale;

/** The kinds of configurable instance, as they appear in configuration keys and in introspection. */
public enum Kind {
  /** {@code @Retry}. */
  RETRY("retry"),
  /** {@code @CircuitBreaker}. */
  CIRCUITBREAKER("circuit breaker"),
  /** {@code @RateLimit}. */
  RATELIMIT("rate limiter"),
  /** {@code @Bulkhead}. */
  BULKHEAD("bulkhead"),
  /** {@code @Timeout}. */
  TIMEOUT("timeout"),
  /** {@code @Fallback}. */
  FALLBACK("fallback"),
  /** A retry budget shared by retries that name it in {@code @Retry(budget)}. */
  RETRYBUDGET("retry budget");

  private final String description;

  Kind(String description) {
    this.description = description;
  }

  /** @return the kind in lower case, as in {@code brace.circuitbreaker.x.y} and {@code names()} */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return how messages call it: "circuit breaker", "rate limiter", … */
  public String description() {
    return description;
  }
}
