package dev.brace.benchmarks;

import dev.brace.runtime.Deadline;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What every other result is read against: the target called with nothing around it ({@code
 * direct}; {@code directAsync} for its already complete future, {@code directMono} for its {@code
 * Mono.just}, {@code directSuspend} for its {@code suspend} function that returns at once, {@code
 * directFlow} for its flow of three collected), and the least an exact four-pattern stack can do
 * ({@code floor}; {@code floorApart} with its counters on separate cache lines; {@code
 * floorFollowingDeadline} for one that also follows its caller's deadline; {@code serviceFloor}
 * for a service's four dependencies, {@code serviceFloorSuspend} for the same four as {@code
 * suspend} functions).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class DirectBenchmarks {
  private final Target target = new Target();
  private final AsyncTarget asyncTarget = new AsyncTarget();
  private final MonoTarget monoTarget = new MonoTarget();
  private final SuspendTarget suspendTarget = new SuspendTarget();
  private final FlowTarget flowTarget = new FlowTarget();
  private final FloorCounters counters = new FloorCounters();
  private final FloorCounters countersApart = FloorCounters.apart();
  private final ServiceClients.Catalog catalog = new ServiceClients.CatalogClient();
  private final ServiceClients.Prices prices = new ServiceClients.PricesClient();
  private final ServiceClients.Stock stock = new ServiceClients.StockClient();
  private final ServiceClients.Reviews reviews = new ServiceClients.ReviewsClient();
  private final SuspendServiceClients.Catalog suspendCatalog = new SuspendServiceClients.CatalogClient();
  private final SuspendServiceClients.Prices suspendPrices = new SuspendServiceClients.PricesClient();
  private final SuspendServiceClients.Stock suspendStock = new SuspendServiceClients.StockClient();
  private final SuspendServiceClients.Reviews suspendReviews = new SuspendServiceClients.ReviewsClient();
  private final FloorCounters catalogCounters = new FloorCounters();
  private final FloorCounters pricesCounters = new FloorCounters();
  private final FloorCounters stockCounters = new FloorCounters();
  private final FloorCounters reviewsCounters = new FloorCounters();

  @Benchmark
  public String direct() {
    return target.call();
  }

  /** The asynchronous floor: the target's future, already complete, joined. */
  @Benchmark
  public String directAsync() {
    return asyncTarget.call().join();
  }

  /** The reactive floor: the target's {@code Mono}, subscribed and blocked on as the Mono rows do. */
  @Benchmark
  public String directMono() {
    return monoTarget.call().block();
  }

  /** The {@code suspend} floor: the target's function called with a reusable continuation, as the suspend rows do. */
  @Benchmark
  public String directSuspend() {
    return Suspensions.answered(suspendTarget.call(Suspensions.CALLER));
  }

  /** The {@code Flow} floor: the target's flow collected, as the Flow rows do. */
  @Benchmark
  public int directFlow(Suspensions.Counting collector) {
    collector.elements = 0;
    Suspensions.answered(flowTarget.call().collect(collector, Suspensions.CALLER));
    return collector.elements;
  }

  /**
   * One read of the monotonic clock, alone: on a virtual machine whose clock source is slow it is
   * most of {@code floor}, and every clock read a pattern adds costs as much again.
   */
  @Benchmark
  public long clockRead() {
    return System.nanoTime();
  }

  /**
   * One clock read (an exact limiter cannot skip it: a stale instant would admit more than its
   * bound) and four compare-and-sets on shared counters ({@link FloorCounters}: the retry's, the
   * breaker's, the limiter's instant, the bulkhead's permit), then the call. Brace's four-pattern
   * stack is measured against this: the target is to stay within 1.2 times of it.
   */
  @Benchmark
  public String floor() {
    long now = System.nanoTime();
    counters.retryAndBreaker();
    counters.limiterAndBulkhead(now);
    return target.call();
  }

  /**
   * {@code floor} with each of its four counters on a cache line of its own, as a stack's instances,
   * made at different times, are: at 2 threads each counter's line moves between the cores on its
   * own, where {@code floor}'s four share one or two lines. At 1 thread it costs what {@code floor}
   * does.
   */
  @Benchmark
  public String floorApart() {
    long now = System.nanoTime();
    countersApart.retryAndBreaker();
    countersApart.limiterAndBulkhead(now);
    return target.call();
  }

  /**
   * The floor of a service's four dependencies ({@link ServiceClients}), one call of each: per
   * call one clock read and the four compare-and-sets of that dependency's own counters, then the
   * call through its interface. The {@code service} rows are read against this.
   */
  @Benchmark
  public int serviceFloor() {
    long now = System.nanoTime();
    catalogCounters.retryAndBreaker();
    catalogCounters.limiterAndBulkhead(now);
    int sum = catalog.item("a").length();
    now = System.nanoTime();
    pricesCounters.retryAndBreaker();
    pricesCounters.limiterAndBulkhead(now);
    sum += prices.price("b").length();
    now = System.nanoTime();
    stockCounters.retryAndBreaker();
    stockCounters.limiterAndBulkhead(now);
    sum += stock.available("c");
    now = System.nanoTime();
    reviewsCounters.retryAndBreaker();
    reviewsCounters.limiterAndBulkhead(now);
    return sum + reviews.summary("d").length();
  }

  /**
   * {@code serviceFloor} with the four dependencies' {@code suspend} clients ({@link
   * SuspendServiceClients}), each called with the reusable continuation as the suspend rows call
   * them. The {@code serviceSuspend} rows are read against this.
   */
  @Benchmark
  public int serviceFloorSuspend() {
    long now = System.nanoTime();
    catalogCounters.retryAndBreaker();
    catalogCounters.limiterAndBulkhead(now);
    int sum = Suspensions.<String>answered(suspendCatalog.item("a", Suspensions.CALLER)).length();
    now = System.nanoTime();
    pricesCounters.retryAndBreaker();
    pricesCounters.limiterAndBulkhead(now);
    sum += Suspensions.<String>answered(suspendPrices.price("b", Suspensions.CALLER)).length();
    now = System.nanoTime();
    stockCounters.retryAndBreaker();
    stockCounters.limiterAndBulkhead(now);
    sum += Suspensions.<Integer>answered(suspendStock.available("c", Suspensions.CALLER));
    now = System.nanoTime();
    reviewsCounters.retryAndBreaker();
    reviewsCounters.limiterAndBulkhead(now);
    return sum + Suspensions.<String>answered(suspendReviews.summary("d", Suspensions.CALLER)).length();
  }

  /**
   * {@code floor} for a stack that follows its caller's deadline, as Brace's does unless {@code
   * BRACE_DEADLINE_ENABLED=false}: the same, after asking whether the thread is under a deadline
   * (one thread-local read, through the public {@link Deadline#current}). No deadline is open, so
   * the call is made.
   */
  @Benchmark
  public String floorFollowingDeadline() {
    if (Deadline.current().isPresent()) {
      throw new IllegalStateException("no deadline is open on a benchmark thread");
    }
    return floor();
  }
}
