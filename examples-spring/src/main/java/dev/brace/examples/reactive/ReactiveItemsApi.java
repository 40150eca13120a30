package dev.brace.examples.reactive;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;
import reactor.core.publisher.Mono;

/**
 * The items service as a Spring HTTP interface on {@code WebClient}, registered by {@link
 * ReactiveItemsApplication}'s {@code @ImportHttpServices} in the group {@code reactive-items} (its
 * base URL: {@code spring.http.serviceclient.reactive-items.base-url}). Spring makes the proxy
 * bean; the starter wraps it in the generated {@code ResilientReactiveItemsApi}, and brace-reactor
 * protects every subscription of the {@code Mono} it returns.
 */
@HttpExchange(url = "/items", accept = "text/plain")
@CircuitBreaker(name = "items-reactive", failureThreshold = 3, resetTimeout = "10s")
public interface ReactiveItemsApi {

  /**
   * @param id an item
   * @return its description, or {@code "unknown"} when the service cannot answer
   */
  @GetExchange("/{id}")
  @Retry(maxAttempts = 3, delay = "50ms", on = {IOException.class, WebClientResponseException.ServiceUnavailable.class})
  @Timeout("1s")
  @Fallback(method = "unknown")
  Mono<String> item(@PathVariable String id);

  /**
   * @param id the item asked for
   * @param cause why the service did not answer
   * @return {@code "unknown"}
   */
  default Mono<String> unknown(String id, Exception cause) {
    return Mono.just("unknown");
  }
}
