package dev.brace.runtime.generated;

import dev.brace.runtime.internal.sequence.CallGuard;

import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import java.util.Objects;

/**
 * What one call declares: its name and the annotation layer of each pattern it uses (every
 * attribute, defaults included, exactly as written at compile time). A generated wrapper keeps one
 * per method in a static field; the registry turns it into a {@link CallGuard} by laying
 * programmatic and external configuration over it. Immutable once built: the builders it holds
 * are only read, through {@code overlay}.
 */
public final class CallDefinition {
  private final String callName;
  private final RetryConfig.Builder retry;
  private final CircuitBreakerConfig.Builder circuitBreaker;
  private final RateLimitConfig.Builder rateLimit;
  private final BulkheadConfig.Builder bulkhead;
  private final TimeoutConfig.Builder timeout;
  private final FallbackConfig.Builder fallback;

  private CallDefinition(Builder builder) {
    this.callName = builder.callName;
    this.retry = builder.retry;
    this.circuitBreaker = builder.circuitBreaker;
    this.rateLimit = builder.rateLimit;
    this.bulkhead = builder.bulkhead;
    this.timeout = builder.timeout;
    this.fallback = builder.fallback;
  }

  /**
   * @param callName {@code Interface.method}
   * @return a builder with no pattern
   */
  public static Builder builder(String callName) {
    return new Builder(callName);
  }

  /** @return {@code Interface.method} */
  public String callName() {
    return callName;
  }

  /** @return the retry's annotation layer, or null */
  public RetryConfig.Builder retry() {
    return retry;
  }

  /** @return the breaker's annotation layer, or null */
  public CircuitBreakerConfig.Builder circuitBreaker() {
    return circuitBreaker;
  }

  /** @return the limiter's annotation layer, or null */
  public RateLimitConfig.Builder rateLimit() {
    return rateLimit;
  }

  /** @return the bulkhead's annotation layer, or null */
  public BulkheadConfig.Builder bulkhead() {
    return bulkhead;
  }

  /** @return the timeout's annotation layer, or null */
  public TimeoutConfig.Builder timeout() {
    return timeout;
  }

  /** @return the fallback's annotation layer, or null */
  public FallbackConfig.Builder fallback() {
    return fallback;
  }

  /** Collects the patterns of one call; each at most once. */
  public static final class Builder {
    private final String callName;
    private RetryConfig.Builder retry;
    private CircuitBreakerConfig.Builder circuitBreaker;
    private RateLimitConfig.Builder rateLimit;
    private BulkheadConfig.Builder bulkhead;
    private TimeoutConfig.Builder timeout;
    private FallbackConfig.Builder fallback;

    private Builder(String callName) {
      this.callName = Objects.requireNonNull(callName, "callName");
    }

    /** @param layer the retry as annotated @return this */
    public Builder retry(RetryConfig.Builder layer) {
      this.retry = once(this.retry, layer, "retry");
      return this;
    }

    /** @param layer the breaker as annotated @return this */
    public Builder circuitBreaker(CircuitBreakerConfig.Builder layer) {
      this.circuitBreaker = once(this.circuitBreaker, layer, "circuit breaker");
      return this;
    }

    /** @param layer the limiter as annotated @return this */
    public Builder rateLimit(RateLimitConfig.Builder layer) {
      this.rateLimit = once(this.rateLimit, layer, "rate limiter");
      return this;
    }

    /** @param layer the bulkhead as annotated @return this */
    public Builder bulkhead(BulkheadConfig.Builder layer) {
      this.bulkhead = once(this.bulkhead, layer, "bulkhead");
      return this;
    }

    /** @param layer the timeout as annotated @return this */
    public Builder timeout(TimeoutConfig.Builder layer) {
      this.timeout = once(this.timeout, layer, "timeout");
      return this;
    }

    /** @param layer the fallback as annotated @return this */
    public Builder fallback(FallbackConfig.Builder layer) {
      this.fallback = once(this.fallback, layer, "fallback");
      return this;
    }

    private <T> T once(T current, T layer, String what) {
      Objects.requireNonNull(layer, what);
      if (current != null) {
        throw new IllegalArgumentException(callName + " has two of " + what + "; a call takes each pattern once");
      }
      return layer;
    }

    /** @return the definition */
    public CallDefinition build() {
      return new CallDefinition(this);
    }
  }
}
