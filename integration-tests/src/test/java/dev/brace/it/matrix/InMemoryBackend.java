package dev.brace.it.matrix;

import dev.brace.runtime.Backend;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A non-local backend as a user could write one: its breakers and limiters are this test's own
 * simple implementations, not the runtime's, and take only the clock and the event boundary from
 * the registry. It remembers what it created, so a cell can prove its instances really came from
 * here.
 */
public final class InMemoryBackend implements Backend {
  public static final String NAME = "memory";

  public final Set<String> created = ConcurrentHashMap.newKeySet();

  @Override
  public RateLimiterInstance rateLimiter(RateLimitConfig config, BackendContext context) {
    created.add(config.name());
    return new MemoryRateLimiter(config, context.time(), context.events());
  }

  @Override
  public CircuitBreakerInstance circuitBreaker(CircuitBreakerConfig config, BackendContext context) {
    created.add(config.name());
    return new MemoryCircuitBreaker(config, context.time(), context.events());
  }
}
