package dev.brace.reliability;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/** The client {@link BadInputTest} feeds bad input through ({@code ResilientFragile}). */
public interface Fragile {

  /** One breaker per tenant; a null tenant has no key. */
  @CircuitBreaker(name = "fragile-keyed", failureThreshold = 2, resetTimeout = "50ms", key = "{tenant}")
  @Bulkhead(name = "fragile-keyed", maxConcurrent = 2)
  String byTenant(String tenant) throws IOException;

  /** Asynchronous, for a delegate that returns no future. */
  @CircuitBreaker(name = "fragile-async", failureThreshold = 2, resetTimeout = "50ms")
  @Bulkhead(name = "fragile-async", maxConcurrent = 2)
  @Timeout("1s")
  CompletableFuture<String> async(String id);

  /** Falls back to {@link #brokenFallback}, which throws when asked to. */
  @Fallback(method = "brokenFallback")
  @CircuitBreaker(name = "fragile-fallback", failureThreshold = 3, resetTimeout = "50ms")
  String withFallback(String id) throws IOException;

  /** Timed and retried: the durations configuration may spoil. */
  @Retry(maxAttempts = 2, delay = "1ms")
  @Timeout("1s")
  @CircuitBreaker(name = "fragile-timed", failureThreshold = 2, resetTimeout = "50ms")
  String timed(String id) throws IOException;

  default String brokenFallback(String id, Exception cause) {
    if (id.equals("fallback-breaks")) {
      throw new IllegalStateException("the fallback itself failed");
    }
    return "fallback:" + id;
  }
}
