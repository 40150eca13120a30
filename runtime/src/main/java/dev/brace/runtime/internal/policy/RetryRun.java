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

  long previousDelayNanos() {
    return previousDelayNanos;
  }

  void previousDelayNanos(long nanos) {
    this.previousDelayNanos = nanos;
  }
}
