package dev.brace.examples.frameworks.webclient;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The items service as a Spring HTTP interface on {@code WebClient}: Spring makes the client
 * ({@link WebClientItems}), Brace wraps it in the generated {@code ResilientWebClientItemsApi}, and
 * {@code brace-reactor} protects each subscription of the {@code Mono} and the {@code Flux} it
 * returns — the request itself, which {@code WebClient} sends only then.
 *
 * <p>What {@code WebClient} signals: an I/O failure (connection refused, reset) as {@link
 * WebClientRequestException} caused by the {@link IOException}, which {@code on = IOException.class}
 * matches through its cause; a 4xx or 5xx answer as a {@link WebClientResponseException} subclass
 * per status ({@code ServiceUnavailable} for a 503), carrying the response's headers.
 */
@HttpExchange(url = "/items", accept = "text/plain")
@CircuitBreaker(name = "items-webclient", failureThreshold = 3, resetTimeout = "10s")
public interface WebClientItemsApi {

  /**
   * @param id an item
   * @return its description, or {@code "unknown"} when the service cannot answer
   */
  @GetExchange("/{id}")
  @Retry(maxAttempts = 3, delay = "50ms", on = {IOException.class, WebClientResponseException.ServiceUnavailable.class})
  @Timeout("1s")
  @Fallback(method = "unknown")
  Mono<String> item(@PathVariable("id") String id);

  /**
   * The item's lines, streamed: retried, and answered by the fallback, only while no line has
   * arrived; the timeout bounds the wait for the first one.
   *
   * @param id an item
   * @return its lines, or none when the service cannot answer
   */
  @GetExchange("/{id}/lines")
  @Retry(maxAttempts = 3, delay = "50ms", on = {IOException.class, WebClientResponseException.ServiceUnavailable.class})
  @Timeout("1s")
  @Fallback(method = "noLines")
  Flux<String> lines(@PathVariable("id") String id);

  /**
   * A {@code Mono} method's fallback may return the plain value.
   *
   * @param id the item asked for
   * @param cause why the service did not answer
   * @return {@code "unknown"}
   */
  default String unknown(String id, Exception cause) {
    return "unknown";
  }

  /**
   * @param id the item asked for
   * @return no lines
   */
  default Flux<String> noLines(String id) {
    return Flux.empty();
  }
}
