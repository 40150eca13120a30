package dev.brace.benchmarks;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.reactor.bulkhead.operator.BulkheadOperator;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import io.github.resilience4j.reactor.ratelimiter.operator.RateLimiterOperator;
import io.github.resilience4j.reactor.retry.RetryOperator;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import io.github.resilience4j.decorators.Decorators;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import kotlinx.coroutines.flow.Flow;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import reactor.core.publisher.Mono;

/**
 * The same stacks built with Resilience4j's decorators, outermost last as {@code Decorators}
 * composes them. Resilience4j has no synchronous timeout (its {@code TimeLimiter} bounds a
 * future), so there is no {@code timeout} benchmark here and {@code sixPatterns} has five
 * patterns plus the fallback. The async stacks decorate a {@code CompletionStage} supplier
 * ({@code decorateCompletionStage}); their retry needs a scheduler for its backoff, which the
 * happy path never uses. The Mono stacks apply {@code resilience4j-reactor}'s operators to the
 * target's {@code Mono} per call, with {@code transformDeferred}, and block on it as Brace's rows do.
 * The {@code suspend} and {@code Flow} stacks are resilience4j-kotlin's, written in Kotlin as its
 * users write them ({@link Resilience4jCoroutines}), and driven as Brace's rows are ({@link
 * Suspensions}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class Resilience4jBenchmarks {

  /** A decorated supplier built once; the benchmark only calls it. */
  public abstract static class Decorated {
    Supplier<String> call;
  }

  @State(Scope.Benchmark)
  public static class RetryState extends Decorated {
    @Setup
    public void setUp() {
      call = Retry.decorateSupplier(retry("retry"), new Target()::call);
    }
  }

  @State(Scope.Benchmark)
  public static class BreakerClassicState extends Decorated {
    @Setup
    public void setUp() {
      call = CircuitBreaker.decorateSupplier(classicBreaker("breaker-classic"), new Target()::call);
    }
  }

  @State(Scope.Benchmark)
  public static class BreakerRateState extends Decorated {
    @Setup
    public void setUp() {
      call = CircuitBreaker.decorateSupplier(
          CircuitBreaker.of("breaker-rate", rateBreaker(Stacks.MINIMUM_CALLS)), new Target()::call);
    }
  }

  @State(Scope.Benchmark)
  public static class LimiterState extends Decorated {
    @Setup
    public void setUp() {
      call = RateLimiter.decorateSupplier(limiter("limiter"), new Target()::call);
    }
  }

  @State(Scope.Benchmark)
  public static class BulkheadState extends Decorated {
    @Setup
    public void setUp() {
      call = Bulkhead.decorateSupplier(bulkhead("bulkhead"), new Target()::call);
    }
  }

  @State(Scope.Benchmark)
  public static class FourPatternsState extends Decorated {
    @Setup
    public void setUp() {
      call = fourPatterns(bulkhead("four"), limiter("four"), classicBreaker("four"), retry("four"));
    }
  }

  /**
   * A service's four dependencies, each decorated once with its own four instances, in Brace's
   * order, as a function of the call's argument (the stock level boxed, as a {@code Function}
   * returns it).
   */
  @State(Scope.Benchmark)
  public static class ServiceState {
    Function<String, String> catalog;
    Function<String, String> prices;
    Function<String, Integer> stock;
    Function<String, String> reviews;

    @Setup
    public void setUp() {
      catalog = service(new ServiceClients.CatalogClient()::item, "service-catalog");
      prices = service(new ServiceClients.PricesClient()::price, "service-prices");
      stock = service(new ServiceClients.StockClient()::available, "service-stock");
      reviews = service(new ServiceClients.ReviewsClient()::summary, "service-reviews");
    }

    private static <T> Function<String, T> service(Function<String, T> client, String name) {
      return Decorators.ofFunction(client)
          .withBulkhead(bulkhead(name))
          .withRateLimiter(limiter(name))
          .withCircuitBreaker(classicBreaker(name))
          .withRetry(retry(name))
          .decorate();
    }
  }

  @State(Scope.Benchmark)
  public static class SixPatternsState extends Decorated {
    @Setup
    public void setUp() {
      call =
          Decorators.ofSupplier(new Target()::call)
              .withBulkhead(bulkhead("six"))
              .withRateLimiter(limiter("six"))
              .withCircuitBreaker(classicBreaker("six"))
              .withRetry(retry("six"))
              .withFallback((Throwable failure) -> Stacks.FALLBACK_VALUE)
              .decorate();
    }
  }

  /** A decorated asynchronous supplier built once, and the scheduler its retry would wait on. */
  public abstract static class DecoratedAsync {
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    Supplier<CompletionStage<String>> call;

    @TearDown
    public void tearDown() {
      scheduler.shutdownNow();
    }
  }

  @State(Scope.Benchmark)
  public static class AsyncRetryState extends DecoratedAsync {
    @Setup
    public void setUp() {
      call = Retry.decorateCompletionStage(retry("retry-async"), scheduler, new AsyncTarget()::call);
    }
  }

  @State(Scope.Benchmark)
  public static class AsyncFourPatternsState extends DecoratedAsync {
    @Setup
    public void setUp() {
      call =
          Decorators.ofCompletionStage(new AsyncTarget()::call)
              .withBulkhead(bulkhead("four-async"))
              .withRateLimiter(limiter("four-async"))
              .withCircuitBreaker(classicBreaker("four-async"))
              .withRetry(retry("four-async"), scheduler)
              .decorate();
    }
  }

  /** The Reactor operators, made once, applied to each call's {@code Mono} as a user of {@code resilience4j-reactor} writes it. */
  @State(Scope.Benchmark)
  public static class MonoRetryState {
    final MonoTarget target = new MonoTarget();
    RetryOperator<String> retry;

    @Setup
    public void setUp() {
      retry = RetryOperator.of(retry("retry-mono"));
    }
  }

  @State(Scope.Benchmark)
  public static class MonoFourPatternsState {
    final MonoTarget target = new MonoTarget();
    BulkheadOperator<String> bulkhead;
    RateLimiterOperator<String> limiter;
    CircuitBreakerOperator<String> breaker;
    RetryOperator<String> retry;

    @Setup
    public void setUp() {
      bulkhead = BulkheadOperator.of(bulkhead("four-mono"));
      limiter = RateLimiterOperator.of(limiter("four-mono"));
      breaker = CircuitBreakerOperator.of(classicBreaker("four-mono"));
      retry = RetryOperator.of(retry("four-mono"));
    }
  }

  /** The instances resilience4j-kotlin's {@code executeSuspendFunction} and Flow operators are given. */
  public abstract static class Coroutines {
    Retry retry;
    CircuitBreaker breaker;
    RateLimiter limiter;
    Bulkhead bulkhead;

    void make(String name) {
      retry = retry(name);
      breaker = classicBreaker(name);
      limiter = limiter(name);
      bulkhead = bulkhead(name);
    }
  }

  @State(Scope.Benchmark)
  public static class SuspendRetryState extends Coroutines {
    final SuspendTarget target = new SuspendTarget();

    @Setup
    public void setUp() {
      make("retry-suspend");
    }
  }

  @State(Scope.Benchmark)
  public static class SuspendFourPatternsState extends Coroutines {
    final SuspendTarget target = new SuspendTarget();

    @Setup
    public void setUp() {
      make("four-suspend");
    }
  }

  /**
   * A service's four reactive dependencies, each with its own four instances as Reactor operators,
   * applied per call in Brace's order as {@code fourPatternsMono} applies them.
   */
  @State(Scope.Benchmark)
  public static class MonoServiceState {
    final MonoServiceClients.Catalog catalog = new MonoServiceClients.CatalogClient();
    final MonoServiceClients.Prices prices = new MonoServiceClients.PricesClient();
    final MonoServiceClients.Stock stock = new MonoServiceClients.StockClient();
    final MonoServiceClients.Reviews reviews = new MonoServiceClients.ReviewsClient();
    Operators<String> catalogOperators;
    Operators<String> pricesOperators;
    Operators<Integer> stockOperators;
    Operators<String> reviewsOperators;

    @Setup
    public void setUp() {
      catalogOperators = new Operators<>("service-mono-catalog");
      pricesOperators = new Operators<>("service-mono-prices");
      stockOperators = new Operators<>("service-mono-stock");
      reviewsOperators = new Operators<>("service-mono-reviews");
    }
  }

  /** One service's four instances as Reactor operators. */
  static final class Operators<T> {
    final BulkheadOperator<T> bulkhead;
    final RateLimiterOperator<T> limiter;
    final CircuitBreakerOperator<T> breaker;
    final RetryOperator<T> retry;

    Operators(String name) {
      bulkhead = BulkheadOperator.of(bulkhead(name));
      limiter = RateLimiterOperator.of(limiter(name));
      breaker = CircuitBreakerOperator.of(classicBreaker(name));
      retry = RetryOperator.of(retry(name));
    }

    /** Innermost first, so the retry is outermost, as in Brace's order. */
    T call(Mono<T> mono) {
      return mono.transformDeferred(bulkhead)
          .transformDeferred(limiter)
          .transformDeferred(breaker)
          .transformDeferred(retry)
          .block();
    }
  }

  /** A service's four dependencies returning a {@code Flow}, each with its own four instances. */
  @State(Scope.Benchmark)
  public static class FlowServiceState {
    final FlowServiceClients.Catalog catalog = new FlowServiceClients.CatalogClient();
    final FlowServiceClients.Prices prices = new FlowServiceClients.PricesClient();
    final FlowServiceClients.Stock stock = new FlowServiceClients.StockClient();
    final FlowServiceClients.Reviews reviews = new FlowServiceClients.ReviewsClient();
    ServiceInstances instances;

    @Setup
    public void setUp() {
      instances = new ServiceInstances("service-flow-");
    }
  }

  /** A service's four {@code suspend} dependencies, each with its own four instances. */
  @State(Scope.Benchmark)
  public static class SuspendServiceState {
    final SuspendServiceClients.Catalog catalog = new SuspendServiceClients.CatalogClient();
    final SuspendServiceClients.Prices prices = new SuspendServiceClients.PricesClient();
    final SuspendServiceClients.Stock stock = new SuspendServiceClients.StockClient();
    final SuspendServiceClients.Reviews reviews = new SuspendServiceClients.ReviewsClient();
    ServiceInstances instances;

    @Setup
    public void setUp() {
      instances = new ServiceInstances("service-suspend-");
    }
  }

  /** The instances of a service's four dependencies for resilience4j-kotlin, named as Brace's are. */
  static final class ServiceInstances {
    final Coroutines catalog;
    final Coroutines prices;
    final Coroutines stock;
    final Coroutines reviews;

    /** @param prefix what each dependency's instances are named after, before its own name */
    ServiceInstances(String prefix) {
      catalog = of(prefix + "catalog");
      prices = of(prefix + "prices");
      stock = of(prefix + "stock");
      reviews = of(prefix + "reviews");
    }

    private static Coroutines of(String name) {
      Coroutines instances = new Coroutines() {};
      instances.make(name);
      return instances;
    }
  }

  @State(Scope.Benchmark)
  public static class FlowRetryState extends Coroutines {
    final FlowTarget target = new FlowTarget();

    @Setup
    public void setUp() {
      make("retry-flow");
    }
  }

  @State(Scope.Benchmark)
  public static class FlowFourPatternsState extends Coroutines {
    final FlowTarget target = new FlowTarget();

    @Setup
    public void setUp() {
      make("four-flow");
    }
  }

  @Benchmark
  public String retry(RetryState state) {
    return state.call.get();
  }

  @Benchmark
  public String breakerClassic(BreakerClassicState state) {
    return state.call.get();
  }

  @Benchmark
  public String breakerRate(BreakerRateState state) {
    return state.call.get();
  }

  @Benchmark
  public String limiter(LimiterState state) {
    return state.call.get();
  }

  @Benchmark
  public String bulkhead(BulkheadState state) {
    return state.call.get();
  }

  /** One call of each of a service's four decorated dependencies, as Brace's {@code service}. */
  @Benchmark
  public int service(ServiceState state) {
    return state.catalog.apply("a").length() + state.prices.apply("b").length() + state.stock.apply("c")
        + state.reviews.apply("d").length();
  }

  @Benchmark
  public String fourPatterns(FourPatternsState state) {
    return state.call.get();
  }

  @Benchmark
  public String sixPatterns(SixPatternsState state) {
    return state.call.get();
  }

  @Benchmark
  public String retryAsync(AsyncRetryState state) {
    return state.call.get().toCompletableFuture().join();
  }

  @Benchmark
  public String fourPatternsAsync(AsyncFourPatternsState state) {
    return state.call.get().toCompletableFuture().join();
  }

  @Benchmark
  public String monoRetry(MonoRetryState state) {
    return state.target.call().transformDeferred(state.retry).block();
  }

  @Benchmark
  public String fourPatternsMono(MonoFourPatternsState state) {
    // Innermost first, so the retry is outermost, as in Brace's order.
    return state.target.call()
        .transformDeferred(state.bulkhead)
        .transformDeferred(state.limiter)
        .transformDeferred(state.breaker)
        .transformDeferred(state.retry)
        .block();
  }

  @Benchmark
  public String suspendRetry(SuspendRetryState state) {
    return Suspensions.answered(Resilience4jCoroutines.retry(state.target, state.retry, Suspensions.CALLER));
  }

  @Benchmark
  public String fourPatternsSuspend(SuspendFourPatternsState state) {
    return Suspensions.answered(Resilience4jCoroutines.fourPatterns(
        state.target, state.bulkhead, state.limiter, state.breaker, state.retry, Suspensions.CALLER));
  }

  /** One call of each of a service's four reactive dependencies, as Brace's {@code serviceMono}. */
  @Benchmark
  public int serviceMono(MonoServiceState state) {
    return state.catalogOperators.call(state.catalog.item("a")).length()
        + state.pricesOperators.call(state.prices.price("b")).length()
        + state.stockOperators.call(state.stock.available("c"))
        + state.reviewsOperators.call(state.reviews.summary("d")).length();
  }

  /** One call of each of a service's four {@code suspend} dependencies, as Brace's {@code serviceSuspend}. */
  @Benchmark
  public int serviceSuspend(SuspendServiceState state) {
    return Suspensions.<String>answered(Resilience4jCoroutines.item(state.catalog, state.instances.catalog, Suspensions.CALLER)).length()
        + Suspensions.<String>answered(Resilience4jCoroutines.price(state.prices, state.instances.prices, Suspensions.CALLER)).length()
        + Suspensions.<Integer>answered(Resilience4jCoroutines.available(state.stock, state.instances.stock, Suspensions.CALLER))
        + Suspensions.<String>answered(Resilience4jCoroutines.summary(state.reviews, state.instances.reviews, Suspensions.CALLER)).length();
  }

  /** One collection of each of a service's four flows through its operators, as Brace's {@code serviceFlow}. */
  @Benchmark
  public int serviceFlow(FlowServiceState state, Suspensions.Counting collector) {
    collector.elements = 0;
    collect(state.catalog.items("a"), state.instances.catalog, collector);
    collect(state.prices.prices("b"), state.instances.prices, collector);
    collect(state.stock.levels("c"), state.instances.stock, collector);
    collect(state.reviews.summaries("d"), state.instances.reviews, collector);
    return collector.elements;
  }

  private static void collect(Flow<String> elements, Coroutines on, Suspensions.Counting collector) {
    Suspensions.answered(Resilience4jCoroutines.fourPatterns(elements, on.bulkhead, on.limiter, on.breaker, on.retry)
        .collect(collector, Suspensions.CALLER));
  }

  @Benchmark
  public int flowRetry(FlowRetryState state, Suspensions.Counting collector) {
    collector.elements = 0;
    Suspensions.answered(Resilience4jCoroutines.retry(state.target.call(), state.retry).collect(collector, Suspensions.CALLER));
    return collector.elements;
  }

  @Benchmark
  public int fourPatternsFlow(FlowFourPatternsState state, Suspensions.Counting collector) {
    collector.elements = 0;
    Suspensions.answered(Resilience4jCoroutines.fourPatterns(
            state.target.call(), state.bulkhead, state.limiter, state.breaker, state.retry)
        .collect(collector, Suspensions.CALLER));
    return collector.elements;
  }

  /** The four-pattern stack around {@link Target}, in Brace's order: retry outermost, bulkhead innermost. */
  static Supplier<String> fourPatterns(Bulkhead bulkhead, RateLimiter limiter, CircuitBreaker breaker, Retry retry) {
    return fourPatterns(new Target()::call, bulkhead, limiter, breaker, retry);
  }

  /** The four-pattern stack around {@code target}, in Brace's order. */
  static Supplier<String> fourPatterns(
      Supplier<String> target, Bulkhead bulkhead, RateLimiter limiter, CircuitBreaker breaker, Retry retry) {
    return Decorators.ofSupplier(target)
        .withBulkhead(bulkhead)
        .withRateLimiter(limiter)
        .withCircuitBreaker(breaker)
        .withRetry(retry)
        .decorate();
  }

  static Retry retry(String name) {
    return Retry.of(
        name, RetryConfig.custom().maxAttempts(Stacks.MAX_ATTEMPTS).waitDuration(Stacks.RETRY_DELAY).build());
  }

  /**
   * Resilience4j has no "N consecutive failures" breaker; the nearest is a count window of N
   * calls that opens when all of them failed.
   */
  static CircuitBreaker classicBreaker(String name) {
    CircuitBreakerConfig config =
        CircuitBreakerConfig.custom()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(Stacks.FAILURE_THRESHOLD)
            .minimumNumberOfCalls(Stacks.FAILURE_THRESHOLD)
            .failureRateThreshold(100)
            .waitDurationInOpenState(Stacks.RESET_TIMEOUT)
            .build();
    return CircuitBreaker.of(name, config);
  }

  /** The rate breaker's settings: a time window of {@link Stacks#WINDOW}, judged once it has seen {@code minimumCalls}. */
  static CircuitBreakerConfig rateBreaker(int minimumCalls) {
    return CircuitBreakerConfig.custom()
        .slidingWindowType(SlidingWindowType.TIME_BASED)
        .slidingWindowSize((int) Stacks.WINDOW.toSeconds())
        .minimumNumberOfCalls(minimumCalls)
        .failureRateThreshold((float) (Stacks.FAILURE_RATE * 100))
        .waitDurationInOpenState(Stacks.RESET_TIMEOUT)
        .build();
  }

  static RateLimiter limiter(String name) {
    RateLimiterConfig config =
        RateLimiterConfig.custom()
            .limitForPeriod(Stacks.PERMITS_PER_SECOND)
            .limitRefreshPeriod(Duration.ofSeconds(1))
            .timeoutDuration(Duration.ZERO)
            .build();
    return RateLimiter.of(name, config);
  }

  static Bulkhead bulkhead(String name) {
    BulkheadConfig config =
        BulkheadConfig.custom().maxConcurrentCalls(Stacks.MAX_CONCURRENT).maxWaitDuration(Duration.ZERO).build();
    return Bulkhead.of(name, config);
  }
}
