package dev.brace.benchmarks;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The compare-and-sets an exact four-pattern stack cannot avoid, on counters shared by every
 * benchmark thread as a stack's breaker, limiter and bulkhead are: the floors ({@link
 * DirectBenchmarks#floor}, {@link MetricsBenchmarks#meteredFloor}) do exactly these four and
 * nothing else of the patterns. Each counter is a separate object, as a real stack's instances
 * are. Made one after another, the four share one or two cache lines, so at 2 threads a call moves
 * fewer lines between the cores than a stack, whose instances are made at different times, moves;
 * {@link #apart()} gives each a line of its own ({@link DirectBenchmarks#floorApart}).
 */
final class FloorCounters {
  private final AtomicLong breakerCount;
  private final AtomicLong retryCount;
  private final AtomicLong limiterInstant;
  private final AtomicLong bulkheadPermits;

  /** The four made one after another. */
  FloorCounters() {
    this(false);
  }

  private FloorCounters(boolean apart) {
    breakerCount = apart ? new LineOfItsOwn() : new AtomicLong();
    retryCount = apart ? new LineOfItsOwn() : new AtomicLong();
    limiterInstant = apart ? new LineOfItsOwn() : new AtomicLong();
    bulkheadPermits = apart ? new LineOfItsOwn() : new AtomicLong();
  }

  /** @return four counters, each followed by a cache line's worth of padding */
  static FloorCounters apart() {
    return new FloorCounters(true);
  }

  /** A counter with 56 bytes after its value: the next counter made after it starts on another line. */
  @SuppressWarnings({"unused", "serial"})
  private static final class LineOfItsOwn extends AtomicLong {
    private long p1;
    private long p2;
    private long p3;
    private long p4;
    private long p5;
    private long p6;
    private long p7;
  }

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
