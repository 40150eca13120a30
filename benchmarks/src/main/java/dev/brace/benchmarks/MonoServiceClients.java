package dev.brace.benchmarks;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.RateLimit;
import dev.brace.Retry;
import org.openjdk.jmh.annotations.CompilerControl;
import reactor.core.publisher.Mono;

/**
 * {@link ServiceClients}' four dependencies with reactive clients ({@code serviceMono}): each
 * returns a {@code Mono.just} made before the benchmark starts, as {@link MonoTarget} does, so
 * what the four wrappers add on top (their publishers and subscribers, the call sites the runtime
 * shares between them) is theirs. Four wrappers hot at once show what one ({@code
 * fourPatternsMono}) cannot.
 */
public final class MonoServiceClients {
  private MonoServiceClients() {}

  /** The catalog service. */
  public interface Catalog {
    @Retry
    @CircuitBreaker(name = "service-mono-catalog")
    @RateLimit(name = "service-mono-catalog", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-mono-catalog", maxConcurrent = 10)
    Mono<String> item(String id);
  }

  /** The pricing service. */
  public interface Prices {
    @Retry
    @CircuitBreaker(name = "service-mono-prices")
    @RateLimit(name = "service-mono-prices", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-mono-prices", maxConcurrent = 10)
    Mono<String> price(String sku);
  }

  /** The stock service. */
  public interface Stock {
    @Retry
    @CircuitBreaker(name = "service-mono-stock")
    @RateLimit(name = "service-mono-stock", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-mono-stock", maxConcurrent = 10)
    Mono<Integer> available(String sku);
  }

  /** The reviews service. */
  public interface Reviews {
    @Retry
    @CircuitBreaker(name = "service-mono-reviews")
    @RateLimit(name = "service-mono-reviews", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-mono-reviews", maxConcurrent = 10)
    Mono<String> summary(String id);
  }

  // Each a class of its own, not inlined, as ServiceClients' are.

  /** The catalog's client. */
  public static final class CatalogClient implements Catalog {
    private final Mono<String> done = Mono.just("item");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Mono<String> item(String id) {
      return done;
    }
  }

  /** The pricing service's client. */
  public static final class PricesClient implements Prices {
    private final Mono<String> done = Mono.just("9.99");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Mono<String> price(String sku) {
      return done;
    }
  }

  /** The stock service's client. */
  public static final class StockClient implements Stock {
    private final Mono<Integer> done = Mono.just(1_000);

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Mono<Integer> available(String sku) {
      return done;
    }
  }

  /** The reviews service's client. */
  public static final class ReviewsClient implements Reviews {
    private final Mono<String> done = Mono.just("4.5");

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Mono<String> summary(String id) {
      return done;
    }
  }
}
