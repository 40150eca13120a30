package dev.brace.benchmarks;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.RateLimit;
import dev.brace.Retry;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowKt;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * {@link ServiceClients}' four dependencies with clients that return a Kotlin {@code Flow}
 * ({@code serviceFlow}): each a cold flow of three strings made before the benchmark starts, as
 * {@link FlowTarget}'s, which emits without suspending. Each collection is one call, so what the
 * four wrappers add on top is theirs. Four wrappers hot at once show what one ({@code
 * fourPatternsFlow}) cannot.
 */
public final class FlowServiceClients {
  private FlowServiceClients() {}

  /** The catalog service. */
  public interface Catalog {
    @Retry
    @CircuitBreaker(name = "service-flow-catalog")
    @RateLimit(name = "service-flow-catalog", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-flow-catalog", maxConcurrent = 10)
    Flow<String> items(String query);
  }

  /** The pricing service. */
  public interface Prices {
    @Retry
    @CircuitBreaker(name = "service-flow-prices")
    @RateLimit(name = "service-flow-prices", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-flow-prices", maxConcurrent = 10)
    Flow<String> prices(String sku);
  }

  /** The stock service. */
  public interface Stock {
    @Retry
    @CircuitBreaker(name = "service-flow-stock")
    @RateLimit(name = "service-flow-stock", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-flow-stock", maxConcurrent = 10)
    Flow<String> levels(String sku);
  }

  /** The reviews service. */
  public interface Reviews {
    @Retry
    @CircuitBreaker(name = "service-flow-reviews")
    @RateLimit(name = "service-flow-reviews", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-flow-reviews", maxConcurrent = 10)
    Flow<String> summaries(String id);
  }

  // Each a class of its own, not inlined, as ServiceClients' are.

  /** The catalog's client. */
  public static final class CatalogClient implements Catalog {
    private final Flow<String> elements = FlowKt.flowOf("a", "b", "c");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Flow<String> items(String query) {
      return elements;
    }
  }

  /** The pricing service's client. */
  public static final class PricesClient implements Prices {
    private final Flow<String> elements = FlowKt.flowOf("9.99", "8.99", "7.99");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Flow<String> prices(String sku) {
      return elements;
    }
  }

  /** The stock service's client. */
  public static final class StockClient implements Stock {
    private final Flow<String> elements = FlowKt.flowOf("10", "20", "30");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Flow<String> levels(String sku) {
      return elements;
    }
  }

  /** The reviews service's client. */
  public static final class ReviewsClient implements Reviews {
    private final Flow<String> elements = FlowKt.flowOf("4.5", "3.5", "5.0");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Flow<String> summaries(String id) {
      return elements;
    }
  }
}
