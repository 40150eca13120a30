package dev.brace.reliability;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import java.io.IOException;

/** Shares {@link Fragile#byTenant}'s breaker and bulkhead, with the same settings. */
public interface Steady {
  @CircuitBreaker(name = "fragile-keyed", failureThreshold = 2, resetTimeout = "50ms", key = "{tenant}")
  @Bulkhead(name = "fragile-keyed", maxConcurrent = 2)
  String byTenant(String tenant) throws IOException;
}
