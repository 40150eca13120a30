package dev.brace.examples.clients;

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
 * The items service as a Spring HTTP interface, registered by {@link ClientsApplication}'s {@code
 * @ImportHttpServices} in the group {@code items} (its base URL: {@code
 * spring.http.serviceclient.items.base-url}). Spring makes the proxy bean; the starter wraps it in
 * the generated {@code ResilientBootItemsApi}, so whoever injects {@code BootItemsApi} gets the
 * wrapper.
 */
@HttpExchange(url = "/items", accept = "text/plain")
@CircuitBreaker(name = "items-boot", failureThreshold = 5, resetTimeout = "10s")
public interface BootItemsApi {

  /**
   * @param id an item
   * @return its description, or {@code "unknown"} when the service cannot answer
   */
  @GetExchange("/{id}")
  @Retry(maxAttempts = 3, delay = "50ms", maxRetryAfter = "2s",
      on = {IOException.class, HttpServerErrorException.ServiceUnavailable.class, HttpClientErrorException.TooManyRequests.class})
  @RateLimit(name = "items-boot", permits = 20, per = "1s", adaptive = true,
      throttledOn = HttpClientErrorException.TooManyRequests.class)
  @Timeout("1s")
  @Fallback(method = "unknown")
  String item(@PathVariable String id);

  /**
   * @param id the item asked for
   * @param cause why the service did not answer
   * @return {@code "unknown"}
   */
  default String unknown(String id, Exception cause) {
    return "unknown";
  }
}
