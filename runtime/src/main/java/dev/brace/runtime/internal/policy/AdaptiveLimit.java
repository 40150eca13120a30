package dev.brace.runtime.internal.policy;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.EventBus;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The moving limit of an adaptive bulkhead, and how a call's latency reaches it without a lock or an
 * allocation.
 *
 * <p>An admitted attempt's ticket notes when it was admitted and how many calls were in flight
 * with it. When the attempt completes, its latency goes into a ring of samples, and whichever thread finds no one else draining applies the waiting samples, one at a
 * time and in order, to the {@link LimitAlgorithm}; the others go on at once. Nobody waits, and a
 * single caller applies every sample exactly as it came. Should the ring ever be full, a sample is
 * dropped rather than waited for.
 *
 * <p>{@code bulkhead.limit_changed} is reported at most once per 100 ms on the registry's clock;
 * {@code from} is the limit the previous event reported, so the events chain.
 */
public final class AdaptiveLimit {
  static final long REPORT_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final EventKind CHANGED = EventKind.BULKHEAD_LIMIT_CHANGED;

  private final String name;
  private final TimeSource time;
  private final EventBus events;
  private final LimitAlgorithm algorithm;
  private volatile int limit;

  private final int mask;
  private final long[] rtts;
  private final int[] inFlights;
  private final boolean[] drops;
  /** Per ring index: {@code position + 1} once a sample is written there, {@code position + size} once read. */
  private final AtomicLongArray published;
  private final AtomicLong tail = new AtomicLong();
  /** Advanced only by the drainer; read by others to see whether samples wait. */
  private volatile long head;
  private final AtomicBoolean draining = new AtomicBoolean();

  /** Written only by the drainer. */
  private int reportedLimit;
  private long reportedAt;
  private boolean reported;

  /**
   * @param config an adaptive bulkhead's settings
   * @param time the clock latency is measured on
   * @param events where limit changes are reported
   */
  AdaptiveLimit(BulkheadConfig config, TimeSource time, EventBus events) {
    this.name = config.name();
    this.time = time;
    this.events = events;
    this.algorithm = LimitAlgorithm.of(config);
    this.limit = config.initialConcurrent();
    this.reportedLimit = limit;
    int size = Integer.highestOneBit(Math.max(64, Math.min(4096, config.maxConcurrent() * 4)) - 1) << 1;
    this.mask = size - 1;
    this.rtts = new long[size];
    this.inFlights = new int[size];
    this.drops = new boolean[size];
    this.published = new AtomicLongArray(size);
    for (int i = 0; i < size; i++) {
      published.set(i, i);
    }
  }

  /**
   * Takes new bounds: the limit learnt so far stays, clamped to the new {@code minConcurrent} and
   * {@code maxConcurrent}. Waits for a drain under way to finish, so no sample is applied with the
   * old bounds after this returns.
   *
   * @param config the bulkhead's new settings, of the same algorithm
   */
  void reconfigure(BulkheadConfig config) {
    while (!draining.compareAndSet(false, true)) {
      Thread.onSpinWait();
    }
    try {
      apply(algorithm.rebound(config.minConcurrent(), config.maxConcurrent()));
    } finally {
      draining.set(false);
    }
    drain();
  }

  /** @return the current limit, between {@code minConcurrent} and {@code maxConcurrent} */
  public int limit() {
    return limit;
  }

  /**
   * An admitted attempt completed: its latency and whether it was a drop become a sample.
   *
   * @param rttNanos how long the attempt took, from its admission
   * @param inFlight the calls in flight when it was admitted, itself included
   * @param drop whether the attempt timed out or the dependency refused it
   */
  void completed(long rttNanos, int inFlight, boolean drop) {
    offer(Math.max(1, rttNanos), inFlight, drop);
    drain();
  }

  private void offer(long rtt, int inFlight, boolean drop) {
    while (true) {
      long position = tail.get();
      int index = (int) position & mask;
      long state = published.get(index);
      if (state != position) {
        if (state < position) {
          return; // the ring is full of samples not yet applied: this one is dropped
        }
        continue; // another thread took this position
      }
      if (tail.compareAndSet(position, position + 1)) {
        rtts[index] = rtt;
        inFlights[index] = inFlight;
        drops[index] = drop;
        published.set(index, position + 1);
        return;
      }
    }
  }

  /** Applies waiting samples unless another thread already does; re-checks after letting go, so none is stranded. */
  private void drain() {
    while (waiting() && draining.compareAndSet(false, true)) {
      try {
        long position = head;
        int index = (int) position & mask;
        while (published.get(index) == position + 1) {
          long rtt = rtts[index];
          int inFlight = inFlights[index];
          boolean drop = drops[index];
          published.set(index, position + mask + 1);
          position++;
          apply(rtt, inFlight, drop);
          index = (int) position & mask;
        }
        head = position;
      } finally {
        draining.set(false);
      }
    }
  }

  private boolean waiting() {
    long position = head;
    return published.get((int) position & mask) == position + 1;
  }

  private void apply(long rtt, int inFlight, boolean drop) {
    apply(algorithm.update(rtt, inFlight, drop));
  }

  /** By the drainer (or a reconfiguration holding its place): the algorithm's new limit. */
  private void apply(int next) {
    if (next != limit) {
      limit = next;
    }
    report(next);
  }

  private void report(int next) {
    if (next == reportedLimit) {
      return;
    }
    if (!events.enabled(CHANGED)) {
      reportedLimit = next;
      return;
    }
    long now = time.nanoTime();
    if (reported && now - reportedAt < REPORT_INTERVAL_NANOS) {
      return;
    }
    events.emit(CHANGED, name, "from", reportedLimit, "to", next);
    reportedLimit = next;
    reportedAt = now;
    reported = true;
  }
}
