package dev.brace.reliability;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The client the soak drives through its generated wrapper ({@code ResilientSoakClient}): the same
 * stack three ways, each with its own breaker and bulkhead so their counts can be told apart.
 */
public interface SoakClient {

  /** Synchronous, timed out by interrupting the caller. */
  @Retry(maxAttempts = 3, delay = "5ms", maxDelay = "20ms")
  @CircuitBreaker(name = "soak-sync", failureThreshold = 4, resetTimeout = "150ms")
  @Bulkhead(name = "soak-sync", maxConcurrent = 3, maxWait = "20ms")
  @Timeout("250ms")
  String get(String path) throws IOException;

  /** Synchronous, timed out by abandoning the attempt on a worker thread. */
  @Retry(maxAttempts = 3, delay = "5ms", maxDelay = "20ms")
  @CircuitBreaker(name = "soak-abandon", failureThreshold = 4, resetTimeout = "150ms")
  @Bulkhead(name = "soak-abandon", maxConcurrent = 3, maxWait = "20ms")
  @Timeout(value = "250ms", mode = Timeout.Mode.ABANDON)
  String getAbandoning(String path) throws IOException;

  /** Asynchronous: every failure arrives through the future. */
  @Retry(maxAttempts = 3, delay = "5ms", maxDelay = "20ms")
  @CircuitBreaker(name = "soak-async", failureThreshold = 4, resetTimeout = "150ms")
  @Bulkhead(name = "soak-async", maxConcurrent = 3, maxWait = "20ms")
  @Timeout("250ms")
  CompletableFuture<String> getAsync(String path);
}
