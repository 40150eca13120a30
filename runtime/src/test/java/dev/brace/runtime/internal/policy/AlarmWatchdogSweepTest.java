package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.internal.policy.InterruptAlarmMechanicsTest.Owner;
import dev.brace.runtime.TimeSource;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watchdog while one of its sweeps is under way. A deadline armed then is not scheduled by
 * its arm but handed to the sweep, which must set the next task for the earliest of what it found
 * and what was armed meanwhile; and whatever goes wrong in the sweep (an interrupt that throws, a
 * scheduler shut down under it), the watchdog's lock is given back, so other threads can still arm.
 *
 * <p>The interleaving is staged on one thread: the sweep runs on the thread that advances the
 * manual clock, and a deadline's owner arms other deadlines from inside the interrupt the sweep
 * delivers to it, which is exactly while the sweep runs.
 */
class AlarmWatchdogSweepTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

  private final ManualTimeSource clock = new ManualTimeSource();
  private TimeSource time = clock;
  private AlarmWatchdog watchdog = new AlarmWatchdog(clock, clock.scheduler());
  private long start = clock.nanoTime();
  private final CountDownLatch testEnded = new CountDownLatch(1);

  @AfterEach
  void releaseOwners() {
    testEnded.countDown();
  }

  /** A thread alive until the test ends, so the watchdog keeps its deadline while it is idle. */
  private final class LiveOwner extends Thread {
    final AtomicInteger interrupts = new AtomicInteger();

    LiveOwner() {
      setDaemon(true);
      start();
    }

    @Override
    public void run() {
      try {
        testEnded.await();
      } catch (InterruptedException ignored) {
        // Interrupts are counted, never delivered: see interrupt().
      }
    }

    @Override
    public void interrupt() {
      interrupts.incrementAndGet();
    }
  }

  private InterruptAlarm registered(Thread owner) {
    InterruptAlarm deadline = new InterruptAlarm(owner, false, null, 0);
    watchdog.register(deadline);
    return deadline;
  }

  /** Arms as a timeout does: the deadline first, then the watchdog is told. */
  private void arm(InterruptAlarm deadline, long at) {
    deadline.arm(at);
    watchdog.armed(at);
  }

  /** Moves the clock to {@code start + nanos}. */
  private void advanceTo(long nanos) {
    clock.advance(Duration.ofNanos(start + nanos - time.nanoTime()));
  }

  /**
   * Makes the watchdog read a clock far behind the manual one, whose readings are negative, as
   * {@link System#nanoTime()}'s may be: instants must be compared by their difference alone.
   */
  private void onAClockWithNegativeReadings() {
    time = new ClockBehind(clock, TimeUnit.DAYS.toNanos(365));
    watchdog = new AlarmWatchdog(time, clock.scheduler());
    start = time.nanoTime();
  }

  @Test
  void aDeadlineArmedWhileASweepRunsFiresAtItsOwnInstantNotAtTheLaterOneTheSweepFound() {
    LiveOwner armedDuringSweep = new LiveOwner();
    InterruptAlarm duringSweep = registered(armedDuringSweep);
    Owner late = new Owner();
    InterruptAlarm lateDeadline = registered(late);
    Owner first = new Owner();
    InterruptAlarm firstDeadline = registered(first);
    // Visited before the deadline that fires, so the sweep cannot see it armed: only the hand-over can.
    first.onInterrupt = () -> arm(duringSweep, start + 2 * SECOND);

    arm(lateDeadline, start + 3 * SECOND);
    arm(firstDeadline, start + SECOND);

    advanceTo(SECOND - 1);
    assertEquals(0, first.interrupts.get(), "armed earlier than the pending task, so that task was replaced");
    advanceTo(SECOND);
    assertEquals(1, first.interrupts.get(), "fired at its own instant");

    advanceTo(2 * SECOND - 1);
    assertEquals(0, armedDuringSweep.interrupts.get());
    advanceTo(2 * SECOND);
    assertEquals(1, armedDuringSweep.interrupts.get(), "the sweep took the deadline armed meanwhile into its next task");
    assertEquals(0, late.interrupts.get());

    advanceTo(3 * SECOND);
    assertEquals(1, late.interrupts.get());
  }

  @Test
  void ofSeveralDeadlinesArmedWhileASweepRunsTheEarliestSetsTheNextTask() {
    LiveOwner middle = new LiveOwner();
    LiveOwner earliest = new LiveOwner();
    LiveOwner latest = new LiveOwner();
    InterruptAlarm middleDeadline = registered(middle);
    InterruptAlarm earliestDeadline = registered(earliest);
    InterruptAlarm latestDeadline = registered(latest);
    Owner late = new Owner();
    InterruptAlarm lateDeadline = registered(late);
    Owner first = new Owner();
    InterruptAlarm firstDeadline = registered(first);
    // Out of order, as deadlines shortened by callers' own can be.
    first.onInterrupt = () -> {
      arm(middleDeadline, start + 2500 * MILLI);
      arm(earliestDeadline, start + 2 * SECOND);
      arm(latestDeadline, start + 2700 * MILLI);
    };
    arm(firstDeadline, start + SECOND);
    arm(lateDeadline, start + 3 * SECOND);

    advanceTo(SECOND);
    assertEquals(1, first.interrupts.get());
    advanceTo(2 * SECOND - 1);
    assertEquals(0, earliest.interrupts.get());
    advanceTo(2 * SECOND);
    assertEquals(1, earliest.interrupts.get(), "the earliest of those armed meanwhile, whichever came first");
    assertEquals(0, middle.interrupts.get() + latest.interrupts.get());

    advanceTo(2500 * MILLI);
    assertEquals(1, middle.interrupts.get());
    assertEquals(0, latest.interrupts.get());
    advanceTo(2700 * MILLI);
    assertEquals(1, latest.interrupts.get());
    assertEquals(0, late.interrupts.get());
  }

  @Test
  void aDeadlineArmedWhileASweepRunsDoesNotPostponeAnEarlierOneTheSweepFound() {
    LiveOwner armedDuringSweep = new LiveOwner();
    InterruptAlarm duringSweep = registered(armedDuringSweep);
    Owner next = new Owner();
    InterruptAlarm nextDeadline = registered(next);
    Owner first = new Owner();
    InterruptAlarm firstDeadline = registered(first);
    first.onInterrupt = () -> arm(duringSweep, start + 3 * SECOND);
    arm(firstDeadline, start + SECOND);
    arm(nextDeadline, start + 2 * SECOND);

    advanceTo(SECOND);
    assertEquals(1, first.interrupts.get());
    advanceTo(2 * SECOND);
    assertEquals(1, next.interrupts.get(), "the sweep's own earliest, not the later one armed meanwhile");
    assertEquals(0, armedDuringSweep.interrupts.get());
    advanceTo(3 * SECOND);
    assertEquals(1, armedDuringSweep.interrupts.get());
  }

  /**
   * {@link Thread#interrupt} may throw (a security manager that denies access to the thread). The
   * sweep then ends early; a deadline armed meanwhile must still be watched, and the watchdog must
   * not stay locked against other threads.
   */
  @Test
  void aSweepEndedByAnInterruptThatThrowsStillWatchesWhatWasArmedMeanwhileAndStaysOpenToOtherThreads()
      throws InterruptedException {
    assertASweepEndedByAnInterruptThatThrowsStillWatchesWhatWasArmedMeanwhile();
  }

  @Test
  void onAClockWithNegativeReadingsASweepEndedByAnInterruptThatThrowsStillWatchesWhatWasArmedMeanwhile()
      throws InterruptedException {
    onAClockWithNegativeReadings();
    assertTrue(start < 0);
    assertASweepEndedByAnInterruptThatThrowsStillWatchesWhatWasArmedMeanwhile();
  }

  private void assertASweepEndedByAnInterruptThatThrowsStillWatchesWhatWasArmedMeanwhile() throws InterruptedException {
    LiveOwner armedDuringSweep = new LiveOwner();
    InterruptAlarm duringSweep = registered(armedDuringSweep);
    Owner refusing = new Owner();
    InterruptAlarm refusingDeadline = registered(refusing);
    refusing.onInterrupt = () -> {
      arm(duringSweep, start + 2 * SECOND);
      throw new SecurityException("not allowed to interrupt this thread");
    };
    arm(refusingDeadline, start + SECOND);

    advanceTo(SECOND);
    assertEquals(1, refusing.interrupts.get());
    advanceTo(2 * SECOND - 1);
    assertEquals(0, armedDuringSweep.interrupts.get());
    advanceTo(2 * SECOND);
    assertEquals(1, armedDuringSweep.interrupts.get(), "armed while the failing sweep ran, and fired");

    LiveOwner other = new LiveOwner();
    assertNull(armOnAnotherThread(registered(other), start + 3 * SECOND));
    advanceTo(3 * SECOND);
    assertEquals(1, other.interrupts.get());
  }

  @Test
  void aSchedulerShutDownDuringASweepLeavesTheWatchdogRefusingLaterArmsNotBlockingThem()
      throws InterruptedException {
    assertArmsAfterASweepThatShutTheSchedulerDownAreRefused(false);
  }

  @Test
  void aSchedulerShutDownDuringASweepThatAlsoFailsLeavesTheWatchdogRefusingLaterArmsNotBlockingThem()
      throws InterruptedException {
    assertArmsAfterASweepThatShutTheSchedulerDownAreRefused(true);
  }

  private void assertArmsAfterASweepThatShutTheSchedulerDownAreRefused(boolean interruptThrows) throws InterruptedException {
    InterruptAlarm duringSweep = registered(new LiveOwner());
    Owner first = new Owner();
    InterruptAlarm firstDeadline = registered(first);
    first.onInterrupt = () -> {
      // The sweep's rescheduling for this deadline is refused.
      arm(duringSweep, start + 3 * SECOND);
      clock.scheduler().shutdown();
      if (interruptThrows) {
        throw new SecurityException("not allowed to interrupt this thread");
      }
    };
    arm(firstDeadline, start + SECOND);

    advanceTo(SECOND);
    assertEquals(1, first.interrupts.get());

    Throwable refused = armOnAnotherThread(registered(new LiveOwner()), start + 2 * SECOND);
    assertInstanceOf(RejectedExecutionException.class, refused, "told the scheduler is gone, not left waiting for the lock");
  }

  @Test
  void aSweepRunOnOneThreadLeavesTheWatchdogOpenToArmsFromAnother() throws InterruptedException {
    watchdog.run();

    LiveOwner other = new LiveOwner();
    assertNull(armOnAnotherThread(registered(other), start + SECOND));
    advanceTo(SECOND);
    assertEquals(1, other.interrupts.get());
  }

  /** @return what arming threw on a thread of its own, or null; fails when that thread is stuck */
  private Throwable armOnAnotherThread(InterruptAlarm deadline, long at) throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread arming = new Thread(() -> {
      try {
        arm(deadline, at);
      } catch (Throwable failure) {
        thrown.set(failure);
      }
    });
    arming.setDaemon(true);
    arming.start();
    arming.join(TimeUnit.SECONDS.toMillis(10));
    assertFalse(arming.isAlive(), "the arm from another thread is stuck on the watchdog's lock");
    return thrown.get();
  }
}
