package dev.brace.runtime.internal.policy;

import static dev.brace.runtime.internal.policy.RateWindowTest.assertCounts;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An outcome whose thread read the clock, then was overtaken: before it recorded, another outcome
 * moved the window a whole span on. The clock here runs that other outcome from inside the first
 * one's clock read, so the interleaving is the same on every run.
 */
class TimeBucketWindowLateOutcomeTest {

  @Test
  void anOutcomeTheWindowMovedPastWhileItWasRecordedIsNotCountedAndTheCountsAreAnswered() {
    InterleavingClock clock = new InterleavingClock();
    TimeBucketWindow window = new TimeBucketWindow(Duration.ofSeconds(1), 10, clock);
    clock.beforeNextReadReturns(() -> {
      clock.now = Duration.ofSeconds(5).toNanos();
      assertCounts(1, 1, window.record(true));
    });

    long counts = window.record(false); // read the clock at 0, records after the failure at 5 s

    assertCounts(1, 1, counts);
    assertCounts(1, 1, window.current());
  }
}
