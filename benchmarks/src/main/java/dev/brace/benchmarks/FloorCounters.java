package dev.brace.benchmarks;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The compare-and-sets an exact four-pattern stack cannot avoid, on counters shared by every
 * benchmark thread as a stack's breaker, limiter and bulkhead are: the floors ({@link
 * DirectBenchmarks#floor}, {@link MetricsBenchmarks#meteredFloor}) do exactly these four and
 * nothing else of the patterns. Each counter is a separate object, as a real stack's instances
 * are; all four on one cache line, or each padded onto its own, would flatter the floor.
 */
final class FloorCounters {
  private final AtomicLong breakerCount = new AtomicLong();
  private final AtomicLong retryCount = new AtomicLong();
  private final AtomicLong limiterInstant = new AtomicLong();
  private final AtomicLong bulkheadPermits = new AtomicLong();

  /** What the retry and the breaker do before an attempt: one compare-and-set each. */
  void retryAndBreaker() {
    long count = breakerCount.get();
    breakerCount.compareAndSet(count, count + 1);
    long last = retryCount.get();
    retryCount.compareAndSet(last, last + 1);
  }

  /**
   * The limiter's admission at {@code now} (its next free instant moved on) and the bulkhead's
   * permit: one compare-and-set each.
   *
   * @param now the clock reading the limiter admits at
   */
  void limiterAndBulkhead(long now) {
    long instant = limiterInstant.get();
    limiterInstant.compareAndSet(instant, Math.max(instant, now) + 1);
    long permits = bulkheadPermits.get();
    bulkheadPermits.compareAndSet(permits, permits + 1);
  }
}
