package dev.brace.runtime.spi;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What a registry gives a {@link dev.brace.runtime.Backend} when it asks for an instance: the
 * registry's clock, scheduler and event boundary, and the local instances a backend falls back
 * to when its store cannot be reached.
 */
public interface BackendContext {

  /** @return the name the backend was registered under, e.g. {@code "redis"} */
  String backendName();

  /** @return the registry's clock; waits for tokens sleep on it */
  TimeSource time();

  /** @return the registry's scheduler, created on first call */
  ScheduledExecutorService scheduler();

  /** @return the registry's event boundary */
  EventSink events();

  /**
   * @param config a rate limiter's settings
   * @return a new local bucket with those settings, on the registry's clock and events
   */
  RateLimiterInstance localRateLimiter(RateLimitConfig config);

  /**
   * @param config a circuit breaker's settings
   * @return a new local breaker with those settings, on the registry's clock and events
   */
  CircuitBreakerInstance localCircuitBreaker(CircuitBreakerConfig config);
}
