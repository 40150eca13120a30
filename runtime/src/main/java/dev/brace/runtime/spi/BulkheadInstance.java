package dev.brace.runtime.spi;

import dev.brace.Criticality;
import dev.brace.runtime.BulkheadHandle;

/**
 * A bulkhead as an attempt that must not wait takes it: a permit now or not at all, and the
 * permit back. Implemented by the local bulkhead (a bulkhead is never shared through a backend);
 * what waits for a permit, and how an adaptive bulkhead learns from an attempt, stays with the
 * runtime.
 */
public interface BulkheadInstance extends BulkheadHandle {

  /**
   * Takes a permit only if the call's level admits one now; never waits and reports nothing.
   *
   * @param level the call's criticality
   * @return whether a permit was taken, to {@linkplain #release() give back} exactly once
   */
  boolean takeNow(Criticality.Level level);

  /**
   * Gives back a permit taken by {@link #takeNow}, waking a caller that waits for one.
   *
   * @throws IllegalStateException when no permit is out
   */
  void release();
}
