package dev.brace.examples;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.StaleIfError;
import dev.brace.Timeout;
import java.io.IOException;
import java.util.List;

/**
 * A client of the recommendations service, made resilient by annotations. The processor
 * generates {@code ResilientRecsClient}; {@link HttpRecsClient} is the plain implementation.
 *
 * <p>Why these numbers: the service usually answers in a few milliseconds, so 300 ms per attempt is
 * generous; the breaker looks at the failure rate of the last second rather than a streak, so
 * a 30% brownout (which retries absorb) does not open it but a dependency that fails or hangs on
 * every call does, within a second. A user the service answered before gets that answer back when
 * the service fails (for up to ten minutes), ahead of the editors' picks, which only a user seen
 * for the first time then gets.
 */
@CircuitBreaker(name = "recs-api", failureRate = 0.6, window = "1s", minimumCalls = 10, resetTimeout = "1s")
public interface RecsClient {

  /** What callers get when the service cannot answer: not personal, but useful. */
  List<String> EDITORS_PICKS = List.of("editors-pick-1", "editors-pick-2", "editors-pick-3");

  /**
   * @param userId whose recommendations
   * @return item ids, best first
   * @throws IOException when the service fails (never with Brace: the user's last answer or the
   *     fallback answers)
   */
  @StaleIfError(maxAge = "10m", key = "{userId}")
  @Retry(maxAttempts = 3, delay = "50ms", maxRetryAfter = "400ms", on = IOException.class)
  @RateLimit(name = "recs-api", permits = 400, per = "1s", maxWait = "50ms")
  @Bulkhead(name = "recs-api", maxConcurrent = 6, maxWait = "20ms")
  @Timeout("300ms")
  @Fallback(method = "editorsPicks")
  List<String> recommendations(String userId) throws IOException;

  /**
   * The fallback: same parameters plus the failure that ended the call.
   *
   * @param userId whose recommendations
   * @param cause why the service could not answer
   * @return {@link #EDITORS_PICKS}
   */
  default List<String> editorsPicks(String userId, Exception cause) {
    return EDITORS_PICKS;
  }
}
