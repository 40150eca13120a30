package dev.brace.test;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/** A dependency with retries and a fallback, called in both forms. */
public interface Catalog {
  String UNKNOWN = "unknown";

  @Retry(maxAttempts = 3, delay = "100ms", multiplier = 1.0, jitter = Retry.Jitter.NONE, on = IOException.class)
  @Fallback(method = "unknown")
  String item(String id) throws IOException;

  @Retry(maxAttempts = 3, delay = "100ms", multiplier = 1.0, jitter = Retry.Jitter.NONE, on = IOException.class)
  @Fallback(method = "unknownLater")
  CompletableFuture<String> itemLater(String id);

  @CircuitBreaker(name = "catalog-api", failureThreshold = 5, resetTimeout = "30s")
  String price(String id) throws IOException;

  default String unknown(String id, Exception cause) {
    return UNKNOWN;
  }

  default CompletableFuture<String> unknownLater(String id, Exception cause) {
    return CompletableFuture.completedFuture(UNKNOWN);
  }
}
