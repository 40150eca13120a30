package dev.brace.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What every other result is read against: the target called with nothing around it ({@code
 * direct}; {@code directAsync} for its already complete future), and the least an exact
 * four-pattern stack can do ({@code floor}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class DirectBenchmarks {
  private final Target target = new Target();
  private final AsyncTarget asyncTarget = new AsyncTarget();

  /**
   * Shared by every benchmark thread, as a stack's breaker, limiter and bulkhead are. Each on its
   * own cache line would flatter the floor; a real stack's instances are separate objects too.
   */
  private final AtomicLong limiterInstant = new AtomicLong();

  private final AtomicLong bulkheadPermits = new AtomicLong();
  private final AtomicLong breakerCount = new AtomicLong();
  private final AtomicLong fourth = new AtomicLong();

  @Benchmark
  public String direct() {
    return target.call();
  }

  /** The asynchronous floor: the target's future, already complete, joined. */
  @Benchmark
  public String directAsync() {
    return asyncTarget.call().join();
  }

  /**
   * One clock read (an exact limiter cannot skip it: a stale instant would admit more than its
   * bound) and four compare-and-sets on shared counters (a limiter's instant, a bulkhead's take and
   * give back, one more for the breaker or retry), then the call. Brace's four-pattern stack is
   * measured against this: the target is to stay within 1.2 times of it.
   */
  @Benchmark
  public String floor() {
    long now = System.nanoTime();
    long instant = limiterInstant.get();
    limiterInstant.compareAndSet(instant, Math.max(instant, now) + 1);
    long permits = bulkheadPermits.get();
    bulkheadPermits.compareAndSet(permits, permits + 1);
    long count = breakerCount.get();
    breakerCount.compareAndSet(count, count + 1);
    long last = fourth.get();
    fourth.compareAndSet(last, last + 1);
    return target.call();
  }
}
