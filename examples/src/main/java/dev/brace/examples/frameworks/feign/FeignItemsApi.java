package dev.brace.examples.frameworks.feign;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import feign.FeignException;
import feign.Param;
import feign.RequestLine;
import java.io.IOException;

/**
 * The items service as an OpenFeign interface: Feign makes the client ({@link FeignItems}), Brace
 * wraps it in the generated {@code ResilientFeignItemsApi}.
 *
 * <p>What Feign throws: an I/O failure as {@code RetryableException} caused by the {@link
 * IOException}; an error answer as {@link FeignException} ({@code FeignException.TooManyRequests},
 * {@code .ServiceUnavailable}, …), except that Feign's default error decoder turns an answer with
 * {@code Retry-After} into a {@code RetryableException} caused by that {@code FeignException}. Every
 * filter reads causes, so naming the status types catches both; the hint is read either way.
 */
@CircuitBreaker(name = "items-feign", failureThreshold = 5, resetTimeout = "10s")
public interface FeignItemsApi {

  /**
   * @param id an item
   * @return its description, or {@code "unknown"} when the service cannot answer
   */
  @RequestLine("GET /items/{id}")
  @Retry(maxAttempts = 3, delay = "50ms", maxRetryAfter = "2s",
      on = {IOException.class, FeignException.ServiceUnavailable.class, FeignException.TooManyRequests.class})
  @RateLimit(name = "items-feign", permits = 20, per = "1s", adaptive = true,
      throttledOn = FeignException.TooManyRequests.class)
  @Timeout(value = "1s", mode = Timeout.Mode.ABANDON)
  @Fallback(method = "unknown")
  String item(@Param("id") String id);

  /**
   * @param id the item asked for
   * @param cause why the service did not answer
   * @return {@code "unknown"}
   */
  default String unknown(String id, Exception cause) {
    return "unknown";
  }
}
