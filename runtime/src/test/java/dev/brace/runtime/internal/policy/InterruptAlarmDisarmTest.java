package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A thread disarming its deadline while the watchdog is delivering that deadline's interrupt: the
 * disarm must not return before the interrupt has landed, or the caller would clear its flag first
 * and be left interrupted after the attempt, and the deadline would be left unusable.
 */
class InterruptAlarmDisarmTest {
  private static final long AT = TimeUnit.SECONDS.toNanos(5);

  /** The attempt's thread: disarms once the interrupt is on its way, and notes what it saw then. */
  private static final class Attempt extends Thread {
    final CountDownLatch delivering = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean delivered;
    volatile InterruptAlarm deadline;
    final AtomicReference<String> seenOnReturn = new AtomicReference<>();

    Attempt() {
      setDaemon(true);
    }

    @Override
    public void run() {
      await(delivering);
      boolean inTime = deadline.disarm();
      seenOnReturn.set((inTime ? "in time" : "fired") + (delivered ? ", interrupt delivered" : ", interrupt still on its way"));
    }

    /** Called on the watchdog's thread; held until released, as a slow interrupt would be. */
    @Override
    public void interrupt() {
      delivering.countDown();
      await(release);
      delivered = true;
    }
  }

  @Test
  void aDisarmDuringTheInterruptsDeliveryReturnsOnlyOnceItLandedAndLeavesTheDeadlineReusable() throws InterruptedException {
    Attempt attempt = new Attempt();
    InterruptAlarm deadline = new InterruptAlarm(attempt, false, null, 0);
    attempt.deadline = deadline;
    deadline.arm(AT);
    attempt.start();
    Thread watchdog = new Thread(() -> deadline.fireIfPassed(AT));
    watchdog.setDaemon(true);
    watchdog.start();

    // Hold the delivery until the attempt's thread is waiting inside disarm (or, were it not to
    // wait, has already returned from it).
    while (attempt.seenOnReturn.get() == null && !inDisarm(attempt)) {
      assertTrue(attempt.isAlive());
      Thread.onSpinWait();
    }
    attempt.release.countDown();
    attempt.join(10_000);
    watchdog.join(10_000);

    assertEquals("fired, interrupt delivered", attempt.seenOnReturn.get());
    assertTrue(deadline.arm(2 * AT), "the deadline serves the thread's next attempt");
    assertTrue(deadline.disarm());
    assertFalse(attempt.isAlive());
  }

  private static boolean inDisarm(Thread thread) {
    return Arrays.stream(thread.getStackTrace()).anyMatch(frame ->
        frame.getClassName().equals(InterruptAlarm.class.getName()) && frame.getMethodName().equals("disarm"));
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(10, TimeUnit.SECONDS));
    } catch (InterruptedException interrupted) {
      throw new AssertionError(interrupted);
    }
  }
}
