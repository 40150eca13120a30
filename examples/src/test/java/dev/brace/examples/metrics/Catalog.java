package dev.brace.examples.metrics;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/** A client whose every method exercises meters the dashboard charts; the processor generates {@code ResilientCatalog}. */
public interface Catalog {

  /**
   * @param id an item
   * @return its name
   * @throws IOException when the catalog fails; two in a row open the breaker
   */
  @CircuitBreaker(name = "catalog", failureThreshold = 2, resetTimeout = "10s")
  String item(String id) throws IOException;

  /**
   * @param query what to look for
   * @return the first match
   * @throws IOException when the search fails
   */
  @RateLimit(name = "catalog-search", permits = 1, per = "1s", maxWait = "2s")
  String search(String query) throws IOException;

  /**
   * @param id an item
   * @return its price, or the cached one when the catalog fails
   * @throws IOException never: the fallback answers
   */
  @Retry(maxAttempts = 2, delay = "100ms", jitter = Retry.Jitter.NONE, budget = "catalog-retries")
  @Fallback(method = "cachedPrice", on = IOException.class)
  String price(String id) throws IOException;

  /**
   * The fallback of {@link #price}.
   *
   * @param id an item
   * @param cause why the catalog did not answer
   * @return the last known price
   */
  default String cachedPrice(String id, IOException cause) {
    return "9.99";
  }

  /**
   * @param id an item
   * @return how many are in stock, later
   */
  @Bulkhead(name = "catalog-stock", maxConcurrent = 1, maxWait = "1s")
  CompletableFuture<Integer> stock(String id);
}
