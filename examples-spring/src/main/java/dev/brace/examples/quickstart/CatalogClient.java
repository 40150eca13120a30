package dev.brace.examples.quickstart;

import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Retry;
import dev.brace.Timeout;
import java.io.IOException;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.annotation.HttpExchange;

/**
 * The product catalog as a Spring HTTP interface, in the group {@code catalog} (its base URL:
 * {@code spring.http.serviceclient.catalog.base-url}).
 */
@HttpExchange(url = "/products", accept = "text/plain")
@CircuitBreaker(name = "catalog-api", failureRate = 0.5, minimumCalls = 10, resetTimeout = "10s")
public interface CatalogClient {

  /**
   * @param sku a product
   * @return its description, or a placeholder when the catalog cannot answer
   */
  @GetExchange("/{sku}")
  @Retry(maxAttempts = 3, delay = "100ms", on = IOException.class)
  @Timeout("1s")
  @Fallback(method = "unknown")
  String product(@PathVariable String sku);

  /**
   * @param sku the product asked for
   * @param cause why the catalog did not answer
   * @return a placeholder
   */
  default String unknown(String sku, Exception cause) {
    return "product " + sku + " (details unavailable)";
  }
}
