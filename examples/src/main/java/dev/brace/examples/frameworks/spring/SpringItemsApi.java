package dev.brace.examples.frameworks.spring;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;

/**
 * The items service as a Spring HTTP interface: Spring makes the client ({@link SpringItems}),
 * Brace wraps it in the generated {@code ResilientSpringItemsApi}.
 *
 * <p>What {@code RestClient} throws: an I/O failure as {@code ResourceAccessException} caused by the
 * {@link IOException}, which {@code on = IOException.class} matches through its cause; a 429 as
 * {@link HttpClientErrorException.TooManyRequests}, a 503 as {@link
 * HttpServerErrorException.ServiceUnavailable}, both carrying the response's {@code Retry-After},
 * which the retry waits for and the adaptive limiter backs off by.
 */
@HttpExchange(url = "/items", accept = "text/plain")
@CircuitBreaker(name = "items-spring", failureThreshold = 5, resetTimeout = "10s")
public interface SpringItemsApi {

  /**
   * @param id an item
   * @return its description, or {@code "unknown"} when the service cannot answer
   */
  @GetExchange("/{id}")
  @Retry(maxAttempts = 3, delay = "50ms", maxRetryAfter = "2s",
      on = {IOException.class, HttpServerErrorException.ServiceUnavailable.class, HttpClientErrorException.TooManyRequests.class})
  @RateLimit(name = "items-spring", permits = 20, per = "1s", adaptive = true,
      throttledOn = HttpClientErrorException.TooManyRequests.class)
  @Timeout("1s")
  @Fallback(method = "unknown")
  String item(@PathVariable("id") String id);

  /**
   * @param id the item asked for
   * @param cause why the service did not answer
   * @return {@code "unknown"}
   */
  default String unknown(String id, Exception cause) {
    return "unknown";
  }
}
