package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class RateWindowTest {
  private static final Duration BUCKET = Duration.ofSeconds(1);

  private final ManualTimeSource time = new ManualTimeSource();

  private static void assertCounts(long calls, long failures, long packed) {
    assertEquals(calls, RateWindow.calls(packed), "calls");
    assertEquals(failures, RateWindow.failures(packed), "failures");
  }

  @Test
  void packedCountsSurviveATransientlyNegativeFailureCount() {
    long packed = 5 * RateWindow.CALL - RateWindow.FAILURE;
    assertCounts(5, -1, packed);
  }

  @Test
  void aLongSilenceExpiresEveryBucketNotOnlyTheOneWrittenNext() {
    TimeBucketWindow window = new TimeBucketWindow(BUCKET.multipliedBy(10), 10, time);
    window.record(true);
    window.record(true);
    window.record(true);
    time.advance(BUCKET.multipliedBy(25));
    assertCounts(1, 0, window.record(false));
  }

  @Test
  void bucketsExpireOneStepAtATime() {
    TimeBucketWindow window = new TimeBucketWindow(BUCKET.multipliedBy(10), 10, time);
    for (int second = 0; second < 10; second++) {
      window.record(true);
      time.advance(BUCKET);
    }
    // Now in second 10: second 0 has left the window.
    assertCounts(10, 9, window.record(false));
    time.advance(BUCKET.multipliedBy(2));
    // Second 12: seconds 1 and 2 have left too, though no outcome touched their slots.
    assertCounts(9, 7, window.record(false));
  }

  @Test
  void theCallWindowCountsTheLastCalls() {
    LastCallsWindow window = new LastCallsWindow(3);
    assertCounts(1, 1, window.record(true));
    assertCounts(2, 1, window.record(false));
    assertCounts(3, 2, window.record(true));
    assertCounts(3, 1, window.record(false));
    assertCounts(3, 1, window.record(false));
    assertCounts(3, 0, window.record(false));
  }

  @Test
  void theCallWindowSettlesOnWhatItHoldsAfterARace() throws Exception {
    LastCallsWindow window = new LastCallsWindow(64);
    hammer(window::record, null);
    assertSettles(window, 64);
  }

  @Test
  void theTimeWindowSettlesOnWhatItHoldsAfterARace() throws Exception {
    TimeBucketWindow window = new TimeBucketWindow(Duration.ofMillis(100), 10, time);
    hammer(window::record, () -> time.advance(Duration.ofMillis(1)));
    time.advance(Duration.ofMillis(100));
    assertSettles(window, 64);
  }

  /** After a race, a run of known outcomes must read back exactly: any drift would show. */
  private static void assertSettles(RateWindow window, int outcomes) {
    long packed = 0;
    for (int i = 0; i < outcomes; i++) {
      packed = window.record(false);
    }
    assertCounts(outcomes, 0, packed);
  }

  private interface Recorder {
    long record(boolean failure);
  }

  /** 8 threads record random outcomes while {@code tick}, if any, moves time on another. */
  private static void hammer(Recorder recorder, Runnable tick) throws Exception {
    int threadCount = 8;
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(threadCount);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < threadCount; t++) {
      threads.add(
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < 20_000; i++) {
                    recorder.record(ThreadLocalRandom.current().nextBoolean());
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } finally {
                  done.countDown();
                }
              }));
    }
    threads.forEach(Thread::start);
    start.countDown();
    while (done.getCount() > 0) {
      if (tick != null) {
        tick.run();
      }
      Thread.onSpinWait();
    }
    for (Thread thread : threads) {
      thread.join();
    }
  }
}
