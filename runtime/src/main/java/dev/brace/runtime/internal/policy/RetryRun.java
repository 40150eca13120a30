package dev.brace.runtime.internal.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * What one call's retry remembers between attempts: the failures so far (attached as suppressed
 * to the one that ends the call) and the previous backoff (for decorrelated jitter). Created only
 * after a first failure, so a call that succeeds at once allocates none. Confined to one call.
 */
public final class RetryRun {
  private final List<Throwable> failures = new ArrayList<>(4);
  private long previousDelayNanos;
  /** The wait before the next attempt, as the latest decision to go on asked for. */
  private long waitNanos;

  RetryRun(long firstDelayNanos) {
    this.previousDelayNanos = firstDelayNanos;
  }

  public void recordFailure(Throwable failure) {
    if (failure != null) {
      failures.add(failure);
    }
  }

  /** Attaches the earlier failures to the final one, in the order they happened. */
  public void attachEarlierFailuresTo(Throwable last) {
    for (Throwable earlier : failures) {
      if (earlier != last) {
        last.addSuppressed(earlier);
      }
    }
  }

  /** @return the wait before the next attempt, in nanoseconds, as the latest decision to go on asked for */
  public long waitNanos() {
    return waitNanos;
  }

  /** @param nanos the wait before the next attempt that a decision to go on asked for */
  public void waitNanos(long nanos) {
    this.waitNanos = nanos;
  }

  long previousDelayNanos() {
    return previousDelayNanos;
  }

  void previousDelayNanos(long nanos) {
    this.previousDelayNanos = nanos;
  }
}
