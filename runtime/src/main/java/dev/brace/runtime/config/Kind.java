package dev.brace.runtime.config;

import java.util.Locale;

/** The kinds of configurable instance, as they appear in configuration keys and in introspection. */
public enum Kind {
  RETRY("retry"),
  CIRCUITBREAKER("circuit breaker"),
  RATELIMIT("rate limiter"),
  BULKHEAD("bulkhead"),
  TIMEOUT("timeout"),
  FALLBACK("fallback"),
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
