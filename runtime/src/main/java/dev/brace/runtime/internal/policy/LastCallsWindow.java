package dev.brace.runtime.internal.policy;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link RateWindow} over the last N outcomes: a ring with one slot per outcome and running
 * totals. Each outcome replaces the oldest one, and the totals change by exactly the difference
 * between the two, so they always settle on what the ring holds, whatever the interleaving.
 */
final class LastCallsWindow extends RateWindow {
  private static final int EMPTY = 0;
  private static final int SUCCEEDED = 1;
  private static final int FAILED = 2;

  private final AtomicIntegerArray ring;
  private final AtomicLong cursor = new AtomicLong();
  private final AtomicLong totals = new AtomicLong();
  private final int size;

  /** @param size the outcomes the window holds; at least 1 */
  LastCallsWindow(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("size must be at least 1: " + size);
    }
    this.size = size;
    this.ring = new AtomicIntegerArray(size);
  }

  @Override
  long record(boolean failure) {
    int slot = (int) (cursor.getAndIncrement() % size);
    int replaced = ring.getAndSet(slot, failure ? FAILED : SUCCEEDED);
    return totals.addAndGet(change(replaced, failure));
  }

  /** The packed change when {@code failure} takes the place of {@code replaced}. */
  private static long change(int replaced, boolean failure) {
    long change = (replaced == EMPTY ? CALL : 0) + (failure ? FAILURE : 0);
    return replaced == FAILED ? change - FAILURE : change;
  }
}
