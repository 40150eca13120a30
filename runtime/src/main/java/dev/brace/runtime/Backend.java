package dev.brace.runtime;

import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.Optional;

/**
 * Where chosen rate limiters and circuit breakers keep their state instead of the JVM's memory,
 * so that a fleet shares one quota and one circuit per name. Given to {@link
 * Registry.Builder#backend(String, Backend)} under a name; an instance uses it when its {@code
 * backend} setting names it ({@code BRACE_RATELIMIT_RECS_API_BACKEND=redis}), and local state
 * otherwise. {@code brace-redis} provides one.
 *
 * <p>The registry asks once per instance (once per key of a keyed family), when the instance is
 * first used. Implementations are thread-safe.
 */
public interface Backend {

  /** The {@code backend} setting of an instance whose state stays in its JVM; the default. */
  String LOCAL = "local";

  /**
   * @param config the limiter's settings; its name (with the key, {@code name[key]}, for a keyed
   *     family) identifies the shared state
   * @param context the registry's clock, scheduler, events and local fallbacks
   * @return the limiter
   */
  RateLimiterInstance rateLimiter(RateLimitConfig config, BackendContext context);

  /**
   * @param config the breaker's settings; its name identifies the shared state
   * @param context the registry's clock, scheduler, events and local fallbacks
   * @return the breaker
   */
  CircuitBreakerInstance circuitBreaker(CircuitBreakerConfig config, BackendContext context);

  /**
   * What the backend knows of its store now, for health checks and metrics. It may ask the store
   * (within its own command timeout) when it has not heard from it lately, so a store that went
   * away while no call used it shows; an implementation keeps that to a bounded rate, since a
   * health check or a metrics scrape may ask often. Each instance also tells its own part ({@link
   * CircuitBreakerHandle#backendAvailable()}, {@link RateLimiterHandle#backendAvailable()}).
   *
   * @return the store's reachability and the fallback in force; empty when the backend cannot
   *     tell (the default)
   */
  default Optional<BackendStatus> status() {
    return Optional.empty();
  }
}
