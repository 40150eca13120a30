package dev.brace.examples.clients;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import feign.FeignException;
import java.io.IOException;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The items service as a Spring Cloud OpenFeign client ({@code items.url} is its address), with
 * Spring MVC's annotations. Spring Cloud makes the bean; the starter wraps it in the generated
 * {@code ResilientCloudItemsApi}. Spring Cloud's Feign does not retry by itself ({@code
 * Retryer.NEVER_RETRY} by default), so Brace's retry is the only one. It throws what plain Feign
 * throws: {@code RetryableException} around an I/O failure, {@code FeignException} subtypes for an
 * error answer.
 */
@FeignClient(name = "cloud-items", url = "${items.url}")
@CircuitBreaker(name = "items-cloud", failureThreshold = 5, resetTimeout = "10s")
public interface CloudItemsApi {

  /**
   * @param id an item
   * @return its description, or {@code "unknown"} when the service cannot answer
   */
  @GetMapping("/items/{id}")
  @Retry(maxAttempts = 3, delay = "50ms", maxRetryAfter = "2s",
      on = {IOException.class, FeignException.ServiceUnavailable.class, FeignException.TooManyRequests.class})
  @RateLimit(name = "items-cloud", permits = 20, per = "1s", adaptive = true,
      throttledOn = FeignException.TooManyRequests.class)
  @Timeout(value = "1s", mode = Timeout.Mode.ABANDON)
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
