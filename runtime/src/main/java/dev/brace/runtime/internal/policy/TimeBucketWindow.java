package dev.brace.runtime.internal.policy;

import dev.brace.runtime.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A {@link RateWindow} over a span of time, split into a fixed number of buckets that expire one
 * bucket-size step at a time. Memory is constant whatever the traffic.
 *
 * <p>Time is cut into epochs of one bucket each; epoch {@code e} lives in slot {@code e % buckets}.
 * Running totals make the rate O(1) to read: an outcome is added to its bucket and to the totals,
 * and a bucket is retired (its counts taken back out of the totals) exactly once, by the thread
 * that replaces it with a bucket of a later epoch. Retiring seals the bucket, so an outcome that
 * arrives too late for it is dropped rather than counted where no one will ever subtract it.
 */
final class TimeBucketWindow extends RateWindow {

  private final TimeSource time;
  private final Duration window;
  private final long origin;
  private final long bucketNanos;
  private final int bucketCount;
  private final AtomicReferenceArray<Bucket> buckets;
  private final AtomicLong latestEpoch = new AtomicLong();
  private final AtomicLong totals = new AtomicLong();

  /**
   * @param window the span the window covers; at least one nanosecond per bucket
   * @param bucketCount the buckets it is split into; at least 1
   * @param time where epochs are read
   */
  TimeBucketWindow(Duration window, int bucketCount, TimeSource time) {
    this(window, bucketCount, time, time.nanoTime());
  }

  /**
   * @param origin the instant epoch 0 starts at: windows that share one see the same buckets at
   *     the same time (the stripes of a {@link StripedTimeWindow})
   */
  TimeBucketWindow(Duration window, int bucketCount, TimeSource time, long origin) {
    this.time = Objects.requireNonNull(time, "time");
    this.window = Objects.requireNonNull(window, "window");
    if (bucketCount < 1 || window.toNanos() < bucketCount) {
      throw new IllegalArgumentException(
          "need 1 to " + window.toNanos() + " buckets for " + window + ": " + bucketCount);
    }
    this.bucketCount = bucketCount;
    this.bucketNanos = window.toNanos() / bucketCount;
    this.origin = origin;
    this.buckets = new AtomicReferenceArray<>(bucketCount);
    for (int slot = 0; slot < bucketCount; slot++) {
      // Epoch -1 is older than any real epoch, so the first outcome of each slot replaces it.
      buckets.set(slot, new Bucket(-1));
    }
  }

  @Override
  long record(boolean failure) {
    long epoch = Math.max(0, (time.nanoTime() - origin) / bucketNanos);
    advanceTo(epoch);
    Bucket bucket = bucketOf(epoch);
    long delta = delta(failure);
    if (bucket != null && bucket.add(delta)) {
      return totals.addAndGet(delta);
    }
    // The window moved past this outcome's epoch while it was being recorded: it is too old to count.
    return totals.get();
  }

  /** @return the counts now, packed: the window moved to the current time first */
  long current() {
    advanceTo(Math.max(0, (time.nanoTime() - origin) / bucketNanos));
    return totals.get();
  }

  /**
   * @return the counts as last updated, packed, without moving the window: may still hold
   *     outcomes that have left it (never fewer than it holds), and costs one read
   */
  long peek() {
    return totals.get();
  }

  /**
   * Retires every bucket the window has moved past, not only the one this outcome lands in, so
   * the totals stop counting slots that no outcome happens to touch. Exactly one thread sweeps
   * each step of time.
   */
  private void advanceTo(long epoch) {
    while (true) {
      long latest = latestEpoch.get();
      if (epoch <= latest) {
        return;
      }
      if (latestEpoch.compareAndSet(latest, epoch)) {
        for (long step = Math.max(latest + 1, epoch - bucketCount + 1); step <= epoch; step++) {
          bucketOf(step);
        }
        return;
      }
    }
  }

  /**
   * @return the bucket of {@code epoch}, replacing (and retiring) an older one in its slot; null
   *     when the slot already holds a later epoch, i.e. {@code epoch} has left the window
   */
  private Bucket bucketOf(long epoch) {
    int slot = (int) (epoch % bucketCount);
    while (true) {
      Bucket current = buckets.get(slot);
      if (current.epoch == epoch) {
        return current;
      }
      if (current.epoch > epoch) {
        return null;
      }
      Bucket fresh = new Bucket(epoch);
      if (buckets.compareAndSet(slot, current, fresh)) {
        totals.addAndGet(-current.retire());
        return fresh;
      }
    }
  }

  /** The packed counts of one epoch. */
  private static final class Bucket {
    /** Far below any real count, and stays negative under every add that can follow. */
    private static final long RETIRED = Long.MIN_VALUE;

    final long epoch;
    private final AtomicLong counts = new AtomicLong();

    Bucket(long epoch) {
      this.epoch = epoch;
    }

    /** @return false when the bucket was already retired, so the totals must not count it */
    boolean add(long delta) {
      return counts.getAndAdd(delta) >= 0;
    }

    /** @return the counts to take out of the totals; later adds are refused */
    long retire() {
      return counts.getAndSet(RETIRED);
    }
  }
}
