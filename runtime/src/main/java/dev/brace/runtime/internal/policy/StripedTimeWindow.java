package dev.brace.runtime.internal.policy;

import dev.brace.runtime.TimeSource;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A {@link TimeBucketWindow} split into stripes, so that threads on different cores record their
 * outcomes without writing one shared counter: each thread records in the stripe its id maps to,
 * created the first time a thread of that stripe records. All stripes share one origin, so their
 * buckets cover the same spans of time and their sum is the window.
 *
 * <p>A second, unstriped window counts the failures alone. A success that finds it empty returns
 * no failures and skips the sum: with no failure in the window the rate is 0 and nothing can open.
 * Anything else (a failure, or a success while failures are in the window) sums the stripes,
 * each moved to the current time first, and the breaker judges that sum.
 *
 * <p>Exactness of the open decision: every outcome is added to exactly one stripe before its
 * recorder reads any sum, so a sum misses only outcomes that other threads are recording at that
 * moment — at most one per thread — and sees every outcome that finished recording before it
 * began. No outcome is lost: the totals settle on exactly what was recorded (a late outcome whose
 * bucket already expired is dropped, as in the unstriped window). A failure is added to its stripe
 * before the failure window, so the recorder of a success that saw the failure window empty did
 * not miss a failure that was complete; the recorder of that failure judges a sum that holds it.
 */
final class StripedTimeWindow extends RateWindow {
  /** Enough stripes for two threads per core on small machines, few enough for keyed families. */
  static final int MOST_STRIPES = 8;

  private final Duration window;
  private final int bucketCount;
  private final TimeSource time;
  private final long origin;
  private final int mask;
  private final AtomicReferenceArray<TimeBucketWindow> stripes;
  private final TimeBucketWindow failures;

  /**
   * @param window the span the window covers; at least one nanosecond per bucket
   * @param bucketCount the buckets it is split into; at least 1
   * @param time where epochs are read
   */
  StripedTimeWindow(Duration window, int bucketCount, TimeSource time) {
    this.window = window;
    this.bucketCount = bucketCount;
    this.time = time;
    this.origin = time.nanoTime();
    this.failures = new TimeBucketWindow(window, bucketCount, time, origin);
    int count = Math.min(MOST_STRIPES, Integer.highestOneBit(Math.max(1, 2 * Runtime.getRuntime().availableProcessors() - 1)) << 1);
    this.mask = count - 1;
    this.stripes = new AtomicReferenceArray<>(count);
  }

  @Override
  long record(boolean failure) {
    stripe().record(failure);
    if (failure) {
      failures.record(true);
      return sum();
    }
    if (RateWindow.failures(failures.peek()) <= 0) {
      return RateWindow.CALL;
    }
    return sum();
  }

  /** @return the stripes' counts added up, each moved to the current time first */
  long sum() {
    long total = 0;
    for (int index = 0; index < stripes.length(); index++) {
      TimeBucketWindow stripe = stripes.get(index);
      if (stripe != null) {
        total += stripe.current();
      }
    }
    // Moves the failure window too, so that failures that have left it stop sending successes here.
    failures.current();
    return total;
  }

  /** @return the current thread's stripe, created by the first thread that needs it */
  private TimeBucketWindow stripe() {
    int index = (int) ((Thread.currentThread().getId() * 0x9E3779B97F4A7C15L) >>> 32) & mask;
    TimeBucketWindow stripe = stripes.get(index);
    if (stripe != null) {
      return stripe;
    }
    TimeBucketWindow created = new TimeBucketWindow(window, bucketCount, time, origin);
    return stripes.compareAndSet(index, null, created) ? created : stripes.get(index);
  }
}
