package dev.brace.benchmarks;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * A service's four client interfaces, as one application has them: each a dependency of its own,
 * with the four-pattern stack on instances of its own name, implemented by a class of its own.
 * Called together ({@code service} rows), they put four wrappers, four delegates and four sets of
 * instances through one JVM, so that whatever the runtime shares between wrappers sees several
 * receivers, as it does in production; a row with one wrapper hot cannot show that. One method
 * returns an {@code int}, as a count or a stock level does, so that a boxed result would show.
 */
public final class ServiceClients {
  private ServiceClients() {}

  /** The catalog service. */
  public interface Catalog {
    @Retry
    @CircuitBreaker(name = "service-catalog")
    @RateLimit(name = "service-catalog", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-catalog", maxConcurrent = 10)
    String item(String id);
  }

  /** The pricing service. */
  public interface Prices {
    @Retry
    @CircuitBreaker(name = "service-prices")
    @RateLimit(name = "service-prices", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-prices", maxConcurrent = 10)
    String price(String sku);
  }

  /** The stock service: a primitive result. */
  public interface Stock {
    @Retry
    @CircuitBreaker(name = "service-stock")
    @RateLimit(name = "service-stock", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-stock", maxConcurrent = 10)
    int available(String sku);
  }

  /** The reviews service. */
  public interface Reviews {
    @Retry
    @CircuitBreaker(name = "service-reviews")
    @RateLimit(name = "service-reviews", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-reviews", maxConcurrent = 10)
    String summary(String id);
  }

  // The same four with an interrupting timeout each ({@code serviceTimed}): every attempt is then
  // bounded, and each wrapper reaches its delegate the timed way.

  /** The catalog service, each attempt within a second. */
  public interface TimedCatalog {
    @Retry
    @CircuitBreaker(name = "service-timed-catalog")
    @RateLimit(name = "service-timed-catalog", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-timed-catalog", maxConcurrent = 10)
    @Timeout("1s")
    String item(String id);
  }

  /** The pricing service, each attempt within a second. */
  public interface TimedPrices {
    @Retry
    @CircuitBreaker(name = "service-timed-prices")
    @RateLimit(name = "service-timed-prices", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-timed-prices", maxConcurrent = 10)
    @Timeout("1s")
    String price(String sku);
  }

  /** The stock service, each attempt within a second. */
  public interface TimedStock {
    @Retry
    @CircuitBreaker(name = "service-timed-stock")
    @RateLimit(name = "service-timed-stock", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-timed-stock", maxConcurrent = 10)
    @Timeout("1s")
    int available(String sku);
  }

  /** The reviews service, each attempt within a second. */
  public interface TimedReviews {
    @Retry
    @CircuitBreaker(name = "service-timed-reviews")
    @RateLimit(name = "service-timed-reviews", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-timed-reviews", maxConcurrent = 10)
    @Timeout("1s")
    String summary(String id);
  }

  // Each implementation is a class of its own and is not inlined, as Target is not: a direct call
  // must not fold away, and a call site that reaches several of them must see several receivers.

  /** The catalog's client. */
  public static final class CatalogClient implements Catalog, TimedCatalog {
    private final String value = "item";

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public String item(String id) {
      return value;
    }
  }

  /** The pricing service's client. */
  public static final class PricesClient implements Prices, TimedPrices {
    private final String value = "9.99";

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public String price(String sku) {
      return value;
    }
  }

  /** The stock service's client; its level is above the cache of boxed small integers. */
  public static final class StockClient implements Stock, TimedStock {
    private final int level = 1_000;

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public int available(String sku) {
      return level;
    }
  }

  /** The reviews service's client. */
  public static final class ReviewsClient implements Reviews, TimedReviews {
    private final String value = "4.5";

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public String summary(String id) {
      return value;
    }
  }
}
