package dev.brace.examples.spring;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.util.List;

/**
 * The recommendations service as this application calls it. The processor generates
 * {@code ResilientRecommendations}, which {@link RecsApplication} provides as a bean. The service
 * grants the whole fleet one quota: application.yml keeps {@code recs-quota} in the application's
 * Redis, so every instance draws on it.
 */
@CircuitBreaker(name = "recs-api", failureThreshold = 3, resetTimeout = "1m")
public interface Recommendations {
  /** What the fallback answers while the service fails. */
  List<String> EDITORS_PICKS = List.of("editors-pick-1", "editors-pick-2");

  /**
   * @param userId whose recommendations
   * @return the recommendations, or {@link #EDITORS_PICKS} when the service fails
   */
  @Retry(maxAttempts = 2, delay = "10ms", on = IllegalStateException.class)
  @RateLimit(name = "recs-quota", permits = 50)
  @Timeout("2s")
  @Fallback(method = "editorsPicks")
  List<String> forUser(String userId);

  /**
   * @param userId whose recommendations
   * @param cause why the service did not answer
   * @return the editors' picks
   */
  default List<String> editorsPicks(String userId, Exception cause) {
    return EDITORS_PICKS;
  }
}
