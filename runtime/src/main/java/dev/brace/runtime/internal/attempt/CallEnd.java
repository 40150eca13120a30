package dev.brace.runtime.internal.attempt;

import dev.brace.runtime.metrics.CallMetrics;

/**
 * How a metered call that ended with an attempt made {@linkplain AttemptPipeline#callWithoutWaiting
 * without waiting} is told: the one thing a call needs afterwards. A call nobody meters is not told.
 */
public interface CallEnd {
  /**
   * @param started the call's start, as its policies began it, or {@link AttemptState#UNTIMED}
   * @param metrics the call's handle on the bound metrics listener, or null when none is bound
   * @param attemptNanos how long the attempt took
   * @param outcomeAt the instant the attempt's outcome was recorded, which ends the call
   */
  void succeededAt(long started, CallMetrics metrics, long attemptNanos, long outcomeAt);
}
