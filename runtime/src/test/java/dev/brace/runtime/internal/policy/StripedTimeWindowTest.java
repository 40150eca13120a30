package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.ManualTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The striped time window: the same counts as one window, no outcome lost however many threads
 * record at once, and a success that can open nothing skips the sum.
 */
class StripedTimeWindowTest {
  private static final Duration BUCKET = Duration.ofSeconds(1);

  private final ManualTimeSource time = new ManualTimeSource();

  private static void assertCounts(long calls, long failures, long packed) {
    assertEquals(calls, RateWindow.calls(packed), "calls");
    assertEquals(failures, RateWindow.failures(packed), "failures");
  }

  @Test
  void bucketsExpireOneStepAtATimeAsInOneWindow() {
    StripedTimeWindow window = new StripedTimeWindow(BUCKET.multipliedBy(10), 10, time);
    for (int second = 0; second < 10; second++) {
      window.record(true);
      time.advance(BUCKET);
    }
    // Second 10: second 0 has left the window; failures remain, so a success gets the sum.
    assertCounts(10, 9, window.record(false));
    time.advance(BUCKET.multipliedBy(2));
    assertCounts(9, 7, window.record(false));
  }

  @Test
  void aSuccessWithNoFailureInTheWindowReportsNoFailuresAndOnceTheyExpireNeitherDoesIt() {
    StripedTimeWindow window = new StripedTimeWindow(BUCKET.multipliedBy(10), 10, time);
    assertCounts(1, 0, window.record(false));
    assertCounts(2, 1, window.record(true));
    assertCounts(3, 1, window.record(false));
    time.advance(BUCKET.multipliedBy(11));
    // The first success after the failure left the window moves the failure window on: exact sum.
    assertCounts(1, 0, window.record(false));
    assertEquals(0, RateWindow.failures(window.record(false)), "then the fast answer: no failures");
    assertCounts(2, 0, window.sum());
  }

  @Test
  void manyThreadsAtOnceLoseNoOutcome() throws Exception {
    StripedTimeWindow window = new StripedTimeWindow(BUCKET.multipliedBy(10), 10, time);
    int threads = 8;
    int each = 20_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> recorders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread recorder = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException interrupted) {
          return;
        }
        for (int i = 0; i < each; i++) {
          long seen = window.record(i % 10 == 0);
          if (RateWindow.failures(seen) > RateWindow.calls(seen)) {
            throw new AssertionError("more failures than calls in one sum: " + seen);
          }
        }
      });
      recorders.add(recorder);
      recorder.start();
    }
    start.countDown();
    for (Thread recorder : recorders) {
      recorder.join(60_000);
    }
    assertCounts((long) threads * each, (long) threads * each / 10, window.sum());
  }

  @Test
  void aFailureSeesEveryOutcomeRecordedBeforeIt() throws Exception {
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
}
