package dev.brace.examples;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.List;

/** A client of a recommendations service, made resilient by annotations. */
@CircuitBreaker(name = "recs-api", failureThreshold = 5, resetTimeout = "2s")
public interface RecsClient {

  @Retry(maxAttempts = 3, delay = "20ms", on = IOException.class)
  @RateLimit(name = "recs-api", permits = 200, per = "1s")
  @Bulkhead(name = "recs-api", maxConcurrent = 8)
  @Timeout("150ms")
  @Fallback(method = "noRecommendations")
  List<String> recommendations(String userId) throws IOException;

  /** What callers get when the service cannot answer: an empty, honest list. */
  default List<String> noRecommendations(String userId, Exception cause) {
    return List.of();
  }
}
