package dev.brace.benchmarks;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.RateLimit;
import dev.brace.Retry;
import kotlin.coroutines.Continuation;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * {@link ServiceClients}' four dependencies with {@code suspend} clients ({@code serviceSuspend}), as
 * Kotlin's compiler and kapt see a {@code suspend fun}: a trailing {@link Continuation} and an
 * {@code Object} result. Each client answers without suspending, as {@link SuspendTarget} does, so
 * what the four wrappers add on top (their suspend path, the call sites the runtime shares between
 * them) is theirs. Four wrappers hot at once show what one ({@code fourPatternsSuspend}) cannot.
 */
public final class SuspendServiceClients {
  private SuspendServiceClients() {}

  /** The catalog service. */
  public interface Catalog {
    @Retry
    @CircuitBreaker(name = "service-suspend-catalog")
    @RateLimit(name = "service-suspend-catalog", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-suspend-catalog", maxConcurrent = 10)
    Object item(String id, Continuation<? super String> continuation);
  }

  /** The pricing service. */
  public interface Prices {
    @Retry
    @CircuitBreaker(name = "service-suspend-prices")
    @RateLimit(name = "service-suspend-prices", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-suspend-prices", maxConcurrent = 10)
    Object price(String sku, Continuation<? super String> continuation);
  }

  /** The stock service: a {@code suspend fun} returning {@code Int}, whose result Kotlin boxes. */
  public interface Stock {
    @Retry
    @CircuitBreaker(name = "service-suspend-stock")
    @RateLimit(name = "service-suspend-stock", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-suspend-stock", maxConcurrent = 10)
    Object available(String sku, Continuation<? super Integer> continuation);
  }

  /** The reviews service. */
  public interface Reviews {
    @Retry
    @CircuitBreaker(name = "service-suspend-reviews")
    @RateLimit(name = "service-suspend-reviews", permits = 1_000_000_000, per = "1s")
    @Bulkhead(name = "service-suspend-reviews", maxConcurrent = 10)
    Object summary(String id, Continuation<? super String> continuation);
  }

  // Each a class of its own, not inlined, as ServiceClients' are.

  /** The catalog's client. */
  public static final class CatalogClient implements Catalog {
    private final String value = "item";

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Object item(String id, Continuation<? super String> continuation) {
      return value;
    }
  }

  /** The pricing service's client. */
  public static final class PricesClient implements Prices {
    private final String value = "9.99";

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Object price(String sku, Continuation<? super String> continuation) {
      return value;
    }
  }

  /**
   * The stock service's client. Its level is boxed once, here: a Kotlin {@code suspend fun} boxes
   * an {@code Int} result itself, so the box is the client's cost, not a library's.
   */
  public static final class StockClient implements Stock {
    private final Integer level = 1_000;

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Object available(String sku, Continuation<? super Integer> continuation) {
      return level;
    }
  }

  /** The reviews service's client. */
  public static final class ReviewsClient implements Reviews {
    private final String value = "4.5";

    @Override
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public Object summary(String id, Continuation<? super String> continuation) {
      return value;
    }
  }
}
