package dev.brace.benchmarks;

import dev.brace.runtime.Registry;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Brace's generated wrappers around {@link Target}, one registry per stack. The wrapper classes
 * are written by the Brace processor during this module's own compilation. The async benchmarks
 * wait for the returned future ({@code join}), which {@link AsyncTarget} completes at once; the
 * Mono benchmarks subscribe to the wrapper's {@code Mono} and block on it, which {@link MonoTarget}
 * answers at once. The {@code suspend} rows call the wrapper's {@code suspend} function with one
 * reusable continuation and take the value it returns at once ({@link Suspensions}: a call that
 * suspended would fail the run), which {@link SuspendTarget} answers without suspending; the
 * {@code Flow} rows collect the wrapper's flow of {@link FlowTarget}'s three elements the same way.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BraceBenchmarks {

  @State(Scope.Benchmark)
  public static class RetryState {
    BraceClients.RetryOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_RetryOnly.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class BreakerClassicState {
    BraceClients.ClassicBreaker client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_ClassicBreaker.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class BreakerRateState {
    BraceClients.RateBreaker client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_RateBreaker.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class BreakerSlowCallState {
    BraceClients.SlowCallBreaker client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_SlowCallBreaker.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class LimiterState {
    BraceClients.LimiterOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_LimiterOnly.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class BulkheadState {
    BraceClients.BulkheadOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_BulkheadOnly.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class AdaptiveBulkheadState {
    BraceClients.AdaptiveBulkheadOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_AdaptiveBulkheadOnly.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class TimeoutState {
    BraceClients.TimeoutOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_TimeoutOnly.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class TimeoutAbandonState {
    BraceClients.TimeoutAbandonOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_TimeoutAbandonOnly.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class FourPatternsState {
    BraceClients.FourPatterns client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_FourPatterns.wrap(new Target(), Registry.builder().build());
    }
  }

  /** A service's four client interfaces, each wrapped, in one registry as an application has them. */
  @State(Scope.Benchmark)
  public static class ServiceState {
    ServiceClients.Catalog catalog;
    ServiceClients.Prices prices;
    ServiceClients.Stock stock;
    ServiceClients.Reviews reviews;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().build();
      catalog = ResilientServiceClients_Catalog.wrap(new ServiceClients.CatalogClient(), registry);
      prices = ResilientServiceClients_Prices.wrap(new ServiceClients.PricesClient(), registry);
      stock = ResilientServiceClients_Stock.wrap(new ServiceClients.StockClient(), registry);
      reviews = ResilientServiceClients_Reviews.wrap(new ServiceClients.ReviewsClient(), registry);
    }
  }

  /** The same four, each with an interrupting {@code @Timeout}: every attempt reached the timed way. */
  @State(Scope.Benchmark)
  public static class TimedServiceState {
    ServiceClients.TimedCatalog catalog;
    ServiceClients.TimedPrices prices;
    ServiceClients.TimedStock stock;
    ServiceClients.TimedReviews reviews;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().build();
      catalog = ResilientServiceClients_TimedCatalog.wrap(new ServiceClients.CatalogClient(), registry);
      prices = ResilientServiceClients_TimedPrices.wrap(new ServiceClients.PricesClient(), registry);
      stock = ResilientServiceClients_TimedStock.wrap(new ServiceClients.StockClient(), registry);
      reviews = ResilientServiceClients_TimedReviews.wrap(new ServiceClients.ReviewsClient(), registry);
    }
  }

  /** The service's four dependencies with asynchronous clients, each wrapped, in one registry. */
  @State(Scope.Benchmark)
  public static class AsyncServiceState {
    AsyncServiceClients.Catalog catalog;
    AsyncServiceClients.Prices prices;
    AsyncServiceClients.Stock stock;
    AsyncServiceClients.Reviews reviews;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().build();
      catalog = ResilientAsyncServiceClients_Catalog.wrap(new AsyncServiceClients.CatalogClient(), registry);
      prices = ResilientAsyncServiceClients_Prices.wrap(new AsyncServiceClients.PricesClient(), registry);
      stock = ResilientAsyncServiceClients_Stock.wrap(new AsyncServiceClients.StockClient(), registry);
      reviews = ResilientAsyncServiceClients_Reviews.wrap(new AsyncServiceClients.ReviewsClient(), registry);
    }
  }

  /** The four-pattern stack in a registry told not to follow callers' deadlines ({@code BRACE_DEADLINE_ENABLED=false}). */
  @State(Scope.Benchmark)
  public static class FourPatternsNotFollowingDeadlinesState {
    BraceClients.FourPatterns client;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().environment(Map.of("BRACE_DEADLINE_ENABLED", "false")).build();
      client = ResilientBraceClients_FourPatterns.wrap(new Target(), registry);
    }
  }

  /**
   * A nested call under a deadline: each thread opens an hour-long deadline once, and every
   * operation is an outer call (its own 10 s timeout) over the four-pattern stack, which inherits
   * the earlier bound and is bounded by it.
   */
  @State(Scope.Thread)
  public static class NestedDeadlineState {
    BraceClients.OuterUnderDeadline client;
    dev.brace.runtime.Deadline.Scope request;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().build();
      BraceClients.FourPatterns inner = ResilientBraceClients_FourPatterns.wrap(new Target(), registry);
      client = ResilientBraceClients_OuterUnderDeadline.wrap(inner::call, registry);
      // Opened on the benchmark's own thread, which a thread-scoped state is set up on.
      request = dev.brace.runtime.Deadline.open(java.time.Duration.ofHours(1));
    }

    @org.openjdk.jmh.annotations.TearDown
    public void tearDown() {
      request.close();
    }
  }

  @State(Scope.Benchmark)
  public static class SixPatternsState {
    BraceClients.SixPatterns client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_SixPatterns.wrap(new Target(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class AsyncRetryState {
    BraceClients.AsyncRetryOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_AsyncRetryOnly.wrap(new AsyncTarget(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class AsyncFourPatternsState {
    BraceClients.AsyncFourPatterns client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_AsyncFourPatterns.wrap(new AsyncTarget(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class AsyncHedgeState {
    BraceClients.AsyncHedgeOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_AsyncHedgeOnly.wrap(new AsyncTarget(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class MonoRetryState {
    BraceClients.MonoRetryOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_MonoRetryOnly.wrap(new MonoTarget(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class MonoFourPatternsState {
    BraceClients.MonoFourPatterns client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_MonoFourPatterns.wrap(new MonoTarget(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class SuspendRetryState {
    BraceClients.SuspendRetryOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_SuspendRetryOnly.wrap(new SuspendTarget(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class SuspendFourPatternsState {
    BraceClients.SuspendFourPatterns client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_SuspendFourPatterns.wrap(new SuspendTarget(), Registry.builder().build());
    }
  }

  /** A service's four client interfaces returning a {@code Flow}, each wrapped, in one registry. */
  @State(Scope.Benchmark)
  public static class FlowServiceState {
    FlowServiceClients.Catalog catalog;
    FlowServiceClients.Prices prices;
    FlowServiceClients.Stock stock;
    FlowServiceClients.Reviews reviews;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().build();
      catalog = ResilientFlowServiceClients_Catalog.wrap(new FlowServiceClients.CatalogClient(), registry);
      prices = ResilientFlowServiceClients_Prices.wrap(new FlowServiceClients.PricesClient(), registry);
      stock = ResilientFlowServiceClients_Stock.wrap(new FlowServiceClients.StockClient(), registry);
      reviews = ResilientFlowServiceClients_Reviews.wrap(new FlowServiceClients.ReviewsClient(), registry);
    }
  }

  /** A service's four reactive client interfaces, each wrapped, in one registry. */
  @State(Scope.Benchmark)
  public static class MonoServiceState {
    MonoServiceClients.Catalog catalog;
    MonoServiceClients.Prices prices;
    MonoServiceClients.Stock stock;
    MonoServiceClients.Reviews reviews;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().build();
      catalog = ResilientMonoServiceClients_Catalog.wrap(new MonoServiceClients.CatalogClient(), registry);
      prices = ResilientMonoServiceClients_Prices.wrap(new MonoServiceClients.PricesClient(), registry);
      stock = ResilientMonoServiceClients_Stock.wrap(new MonoServiceClients.StockClient(), registry);
      reviews = ResilientMonoServiceClients_Reviews.wrap(new MonoServiceClients.ReviewsClient(), registry);
    }
  }

  /** A service's four {@code suspend} client interfaces, each wrapped, in one registry. */
  @State(Scope.Benchmark)
  public static class SuspendServiceState {
    SuspendServiceClients.Catalog catalog;
    SuspendServiceClients.Prices prices;
    SuspendServiceClients.Stock stock;
    SuspendServiceClients.Reviews reviews;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().build();
      catalog = ResilientSuspendServiceClients_Catalog.wrap(new SuspendServiceClients.CatalogClient(), registry);
      prices = ResilientSuspendServiceClients_Prices.wrap(new SuspendServiceClients.PricesClient(), registry);
      stock = ResilientSuspendServiceClients_Stock.wrap(new SuspendServiceClients.StockClient(), registry);
      reviews = ResilientSuspendServiceClients_Reviews.wrap(new SuspendServiceClients.ReviewsClient(), registry);
    }
  }

  @State(Scope.Benchmark)
  public static class FlowRetryState {
    BraceClients.FlowRetryOnly client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_FlowRetryOnly.wrap(new FlowTarget(), Registry.builder().build());
    }
  }

  @State(Scope.Benchmark)
  public static class FlowFourPatternsState {
    BraceClients.FlowFourPatterns client;

    @Setup
    public void setUp() {
      client = ResilientBraceClients_FlowFourPatterns.wrap(new FlowTarget(), Registry.builder().build());
    }
  }

  @Benchmark
  public String retry(RetryState state) {
    return state.client.call();
  }

  @Benchmark
  public String breakerClassic(BreakerClassicState state) {
    return state.client.call();
  }

  @Benchmark
  public String breakerRate(BreakerRateState state) {
    return state.client.call();
  }

  /** The rate breaker with {@code slowCall}: what timing every attempt adds. */
  @Benchmark
  public String breakerSlowCall(BreakerSlowCallState state) {
    return state.client.call();
  }

  @Benchmark
  public String limiter(LimiterState state) {
    return state.client.call();
  }

  @Benchmark
  public String bulkhead(BulkheadState state) {
    return state.client.call();
  }

  @Benchmark
  public String bulkheadAdaptive(AdaptiveBulkheadState state) {
    return state.client.call();
  }

  @Benchmark
  public String timeout(TimeoutState state) {
    return state.client.call();
  }

  @Benchmark
  public String timeoutAbandon(TimeoutAbandonState state) {
    return state.client.call();
  }

  @Benchmark
  public String fourPatterns(FourPatternsState state) {
    return state.client.call();
  }

  /** One call of each of a service's four wrapped dependencies; read against {@code serviceFloor}. */
  @Benchmark
  public int service(ServiceState state) {
    return state.catalog.item("a").length() + state.prices.price("b").length() + state.stock.available("c")
        + state.reviews.summary("d").length();
  }

  /**
   * {@code service} with an interrupting timeout on each of the four: each attempt armed and
   * disarmed on the thread's alarm; read against {@code service} and {@code serviceFloor}.
   */
  @Benchmark
  public int serviceTimed(TimedServiceState state) {
    return state.catalog.item("a").length() + state.prices.price("b").length() + state.stock.available("c")
        + state.reviews.summary("d").length();
  }

  /**
   * One call of each of the service's four asynchronous dependencies, each future joined: four
   * async wrappers hot at once; read against {@code service}.
   */
  @Benchmark
  public int serviceAsync(AsyncServiceState state) {
    return state.catalog.item("a").join().length() + state.prices.price("b").join().length()
        + state.stock.available("c").join() + state.reviews.summary("d").join().length();
  }

  /** {@code fourPatterns} without the read of the thread's deadline every call makes; read against {@code floor}. */
  @Benchmark
  public String fourPatternsNotFollowingDeadlines(FourPatternsNotFollowingDeadlinesState state) {
    return state.client.call();
  }

  @Benchmark
  public String deadlineNested(NestedDeadlineState state) {
    return state.client.call();
  }

  @Benchmark
  public String sixPatterns(SixPatternsState state) {
    return state.client.call();
  }

  @Benchmark
  public String retryAsync(AsyncRetryState state) {
    return state.client.call().join();
  }

  @Benchmark
  public String fourPatternsAsync(AsyncFourPatternsState state) {
    return state.client.call().join();
  }

  @Benchmark
  public String hedgeAsync(AsyncHedgeState state) {
    return state.client.call().join();
  }

  /** One subscription of the wrapper's {@code Mono}, blocked on: one call through the retry. */
  @Benchmark
  public String monoRetry(MonoRetryState state) {
    return state.client.call().block();
  }

  @Benchmark
  public String fourPatternsMono(MonoFourPatternsState state) {
    return state.client.call().block();
  }

  /**
   * One call of each of the service's four reactive dependencies, each {@code Mono} blocked on as
   * the Mono rows do: four reactive wrappers hot at once; read against {@code fourPatternsMono}.
   */
  @Benchmark
  public int serviceMono(MonoServiceState state) {
    return state.catalog.item("a").block().length() + state.prices.price("b").block().length()
        + state.stock.available("c").block() + state.reviews.summary("d").block().length();
  }

  /** One call of the wrapper's {@code suspend} function through the retry, answered without suspending. */
  @Benchmark
  public String suspendRetry(SuspendRetryState state) {
    return Suspensions.answered(state.client.call(Suspensions.CALLER));
  }

  @Benchmark
  public String fourPatternsSuspend(SuspendFourPatternsState state) {
    return Suspensions.answered(state.client.call(Suspensions.CALLER));
  }

  /**
   * One call of each of the service's four {@code suspend} dependencies, each answered without
   * suspending: four suspend wrappers hot at once; read against {@code fourPatternsSuspend}.
   */
  @Benchmark
  public int serviceSuspend(SuspendServiceState state) {
    return Suspensions.<String>answered(state.catalog.item("a", Suspensions.CALLER)).length()
        + Suspensions.<String>answered(state.prices.price("b", Suspensions.CALLER)).length()
        + Suspensions.<Integer>answered(state.stock.available("c", Suspensions.CALLER))
        + Suspensions.<String>answered(state.reviews.summary("d", Suspensions.CALLER)).length();
  }

  /**
   * One collection of each of the service's four flows (one call of each dependency), their
   * elements counted: four Flow wrappers hot at once; read against {@code fourPatternsFlow}.
   */
  @Benchmark
  public int serviceFlow(FlowServiceState state, Suspensions.Counting collector) {
    collector.elements = 0;
    Suspensions.answered(state.catalog.items("a").collect(collector, Suspensions.CALLER));
    Suspensions.answered(state.prices.prices("b").collect(collector, Suspensions.CALLER));
    Suspensions.answered(state.stock.levels("c").collect(collector, Suspensions.CALLER));
    Suspensions.answered(state.reviews.summaries("d").collect(collector, Suspensions.CALLER));
    return collector.elements;
  }

  /** One collection of the wrapper's flow (one call through the retry), its three elements counted. */
  @Benchmark
  public int flowRetry(FlowRetryState state, Suspensions.Counting collector) {
    collector.elements = 0;
    Suspensions.answered(state.client.call().collect(collector, Suspensions.CALLER));
    return collector.elements;
  }

  @Benchmark
  public int fourPatternsFlow(FlowFourPatternsState state, Suspensions.Counting collector) {
    collector.elements = 0;
    Suspensions.answered(state.client.call().collect(collector, Suspensions.CALLER));
    return collector.elements;
  }
}
