package dev.brace.runtime.internal.policy;

import dev.brace.runtime.TimeSource;

/**
 * A permit of an adaptive bulkhead as the attempt pipeline holds it in tests of the bulkhead alone:
 * the instant it was admitted at and the calls in flight with it, handed back with its outcome.
 */
record TimedPermit(SemaphoreBulkhead bulkhead, TimeSource clock, long admittedAt, int inFlight) {
  /** Notes a permit just taken, as the pipeline does at admission. */
  static TimedPermit taken(SemaphoreBulkhead bulkhead, TimeSource clock) {
    return new TimedPermit(bulkhead, clock, clock.nanoTime(), bulkhead.inFlight());
  }

  void completed(Throwable failure) {
    bulkhead.completed(clock.nanoTime() - admittedAt, inFlight, failure);
  }

  void abandoned() {
    bulkhead.abandoned();
  }
}
