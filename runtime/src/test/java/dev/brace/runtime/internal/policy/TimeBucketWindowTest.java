package dev.brace.runtime.internal.policy;

import static dev.brace.runtime.internal.policy.RateWindowTest.assertCounts;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/** The bounds a time-bucketed window accepts, and where its buckets start. */
class TimeBucketWindowTest {
  private final ManualTimeSource time = new ManualTimeSource();

  @Test
  void aSingleBucketWindowCountsUntilItsWholeSpanHasPassed() {
    TimeBucketWindow window = new TimeBucketWindow(Duration.ofSeconds(1), 1, time);
    window.record(true);
    time.advance(Duration.ofMillis(999));
    assertCounts(2, 1, window.record(false));
    time.advance(Duration.ofMillis(1));
    assertCounts(1, 0, window.record(false));
  }

  @Test
  void aWindowOfOneNanosecondPerBucketIsTheFinestAccepted() {
    TimeBucketWindow window = new TimeBucketWindow(Duration.ofNanos(4), 4, time);
    window.record(true);
    time.advance(Duration.ofNanos(3));
    assertCounts(2, 1, window.record(false));
    time.advance(Duration.ofNanos(1));
    assertCounts(2, 0, window.record(false));
    assertThrows(IllegalArgumentException.class, () -> new TimeBucketWindow(Duration.ofNanos(3), 4, time));
    assertThrows(IllegalArgumentException.class, () -> new TimeBucketWindow(Duration.ofSeconds(1), 0, time));
  }

  @Test
  void aReadAfterTheWindowMovedAWholeSpanWithNoOutcomeSinceCountsNothingOld() {
    TimeBucketWindow window = new TimeBucketWindow(Duration.ofSeconds(10), 10, time);
    window.record(true);
    window.record(false);
    // A whole window later the clock is back at the first bucket's slot, and no outcome came since.
    time.advance(Duration.ofSeconds(10));
    assertCounts(0, 0, window.current());
  }

  @Test
  void bucketsStartWhenTheWindowIsCreatedNotAtTheClocksZero() {
    time.advance(Duration.ofMillis(1500));
    TimeBucketWindow window = new TimeBucketWindow(Duration.ofSeconds(10), 10, time);
    window.record(true);
    // 10 s less a nanosecond after creation the first bucket is still inside the window.
    time.advance(Duration.ofSeconds(10).minusNanos(1));
    assertCounts(2, 1, window.record(false));
    time.advance(Duration.ofNanos(1));
    assertCounts(2, 0, window.record(false));
  }

  @Test
  void threadsThatCreateTheirStripesTogetherAreAllCounted() throws Exception {
    int threads = 8;
    for (int round = 0; round < 50; round++) {
      StripedTimeWindow window = new StripedTimeWindow(Duration.ofSeconds(10), 10, time);
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Thread> started = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Thread thread = new Thread(() -> {
          try {
            start.await();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          window.record(false);
        });
        thread.start();
        started.add(thread);
      }
      for (Thread thread : started) {
        thread.join();
      }
      assertCounts(threads, 0, window.sum());
    }
  }
}
