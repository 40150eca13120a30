package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RateWindowTest {
  private static final Duration BUCKET = Duration.ofSeconds(1);

  private final ManualTimeSource time = new ManualTimeSource();

  static void assertCounts(long calls, long failures, long packed) {
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
    expiresOneStepAtATime(new TimeBucketWindow(BUCKET.multipliedBy(10), 10, time));
  }

  @Test
  void stripedBucketsExpireOneStepAtATimeAsOneWindowDoes() {
    expiresOneStepAtATime(new StripedTimeWindow(BUCKET.multipliedBy(10), 10, time));
  }

  private void expiresOneStepAtATime(RateWindow window) {
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
  void aStripedSuccessWithNoFailureInTheWindowReportsNoFailuresAndSkipsTheSum() {
    StripedTimeWindow window = new StripedTimeWindow(BUCKET.multipliedBy(10), 10, time);
    assertCounts(1, 0, window.record(false));
    assertCounts(2, 1, window.record(true));
    assertCounts(3, 1, window.record(false));
    time.advance(BUCKET.multipliedBy(11));
    // The first success after the failure left the window moves the failure window on: exact sum.
    assertCounts(1, 0, window.record(false));
    assertEquals(0, RateWindow.failures(window.record(false)), "then the answer without the sum: no failures");
    assertCounts(2, 0, window.sum());
  }

  @Test
  void aStripedFailureSeesEveryOutcomeRecordedBeforeIt() throws Exception {
    StripedTimeWindow window = new StripedTimeWindow(BUCKET.multipliedBy(10), 10, time);
    Thread other = new Thread(() -> {
      for (int i = 0; i < 1_000; i++) {
        window.record(false);
      }
    });
    other.start();
    other.join();
    assertCounts(1_001, 1, window.record(true));
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

  @Test
  void theStripedWindowSettlesOnWhatItHoldsAfterARace() throws Exception {
    StripedTimeWindow window = new StripedTimeWindow(Duration.ofMillis(100), 10, time);
    hammer(window::record, () -> time.advance(Duration.ofMillis(1)));
    time.advance(Duration.ofMillis(100));
    for (int i = 0; i < 64; i++) {
      window.record(false);
    }
    // A success with no failure in the window answers without the sum: ask for it.
    assertCounts(64, 0, window.sum());
  }

  @Test
  void theStripedWindowLosesNoOutcomeOfARace() throws Exception {
    StripedTimeWindow window = new StripedTimeWindow(BUCKET.multipliedBy(10), 10, time);
    AtomicLong failures = new AtomicLong();
    hammer(failure -> {
      if (failure) {
        failures.incrementAndGet();
      }
      long seen = window.record(failure);
      if (RateWindow.failures(seen) > RateWindow.calls(seen)) {
        throw new AssertionError("more failures than calls in one sum: " + seen);
      }
      return seen;
    }, null);
    assertCounts(8 * 20_000, failures.get(), window.sum());
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
