package dev.brace.benchmarks;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.RateLimit;
import dev.brace.Retry;
import java.util.concurrent.CompletableFuture;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * {@link ServiceClients}' four dependencies with asynchronous clients ({@code serviceAsync}): each
 * returns a {@code CompletableFuture}, completed before the benchmark starts as {@link AsyncTarget}'s
 * is, so what the four wrappers add on top (their futures, callbacks, the shared call site) is
 * theirs. Four wrappers hot at once show what one ({@code fourPatternsAsync}) cannot.
 */
public final class AsyncServiceClients {
  private AsyncServiceClients() {}

  /** The catalog service. */
  public interface Catalog {
    @Retry
    @CircuitBreaker(name = "service-async-catalog")
    @RateLimit(name = "service-async-catalog", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-async-catalog", maxConcurrent = 10)
    CompletableFuture<String> item(String id);
  }

  /** The pricing service. */
  public interface Prices {
    @Retry
    @CircuitBreaker(name = "service-async-prices")
    @RateLimit(name = "service-async-prices", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-async-prices", maxConcurrent = 10)
    CompletableFuture<String> price(String sku);
  }

  /** The stock service. */
  public interface Stock {
    @Retry
    @CircuitBreaker(name = "service-async-stock")
    @RateLimit(name = "service-async-stock", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-async-stock", maxConcurrent = 10)
    CompletableFuture<Integer> available(String sku);
  }

  /** The reviews service. */
  public interface Reviews {
    @Retry
    @CircuitBreaker(name = "service-async-reviews")
    @RateLimit(name = "service-async-reviews", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-async-reviews", maxConcurrent = 10)
    CompletableFuture<String> summary(String id);
  }

  // Each a class of its own, not inlined, as ServiceClients' are.

  /** The catalog's client. */
  public static final class CatalogClient implements Catalog {
    private final CompletableFuture<String> done = CompletableFuture.completedFuture("item");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public CompletableFuture<String> item(String id) {
      return done;
    }
  }

  /** The pricing service's client. */
  public static final class PricesClient implements Prices {
    private final CompletableFuture<String> done = CompletableFuture.completedFuture("9.99");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public CompletableFuture<String> price(String sku) {
      return done;
    }
  }

  /** The stock service's client. */
  public static final class StockClient implements Stock {
    private final CompletableFuture<Integer> done = CompletableFuture.completedFuture(1_000);

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public CompletableFuture<Integer> available(String sku) {
      return done;
    }
  }

  /** The reviews service's client. */
  public static final class ReviewsClient implements Reviews {
    private final CompletableFuture<String> done = CompletableFuture.completedFuture("4.5");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public CompletableFuture<String> summary(String id) {
      return done;
    }
  }
}
