package dev.brace.examples.frameworks.jdk;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;

/**
 * The items service as an interface of one's own, implemented with the JDK's {@code HttpClient}
 * ({@link HttpClientItemsApi}). No framework makes its exceptions, so the implementation throws
 * its own: {@link HttpStatusException}, an {@link IOException} that implements {@code
 * RetryAfterHint} from the answer's {@code Retry-After}; {@link HttpStatusException.ClientError} for
 * an answer that another attempt would not change, which the retry ignores.
 */
@CircuitBreaker(name = "items-jdk", failureThreshold = 5, resetTimeout = "10s")
public interface JdkItemsApi {

  /**
   * @param id an item
   * @return its description, or {@code "unknown"} when the service cannot answer
   * @throws IOException never with Brace (the fallback answers); without it, when the request fails
   */
  @Retry(maxAttempts = 3, delay = "50ms", maxRetryAfter = "2s", on = IOException.class,
      ignore = HttpStatusException.ClientError.class)
  @RateLimit(name = "items-jdk", permits = 20, per = "1s", adaptive = true,
      throttledOn = HttpStatusException.TooManyRequests.class)
  @Timeout("1s")
  @Fallback(method = "unknown")
  String item(String id) throws IOException;

  /**
   * @param id the item asked for
   * @param cause why the service did not answer
   * @return {@code "unknown"}
   */
  default String unknown(String id, Exception cause) {
    return "unknown";
  }
}
