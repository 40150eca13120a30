package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.context.CallContext;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The parts under a timeout, one at a time: a thread's reusable deadline (armed, disarmed, fired,
 * re-armed), the watchdog that wakes for the earliest deadline and forgets ended ones, and the
 * abandonable attempt that hands its outcome to the waiting caller or gives up on its worker.
 */
class InterruptAlarmMechanicsTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final ManualTimeSource clock = new ManualTimeSource();

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  /**
   * A thread that is never started: it counts the interrupts a deadline delivers to it and runs
   * {@link #onInterrupt} in each, which lets a test act from inside the watchdog's sweep.
   */
  static final class Owner extends Thread {
    final AtomicInteger interrupts = new AtomicInteger();
    volatile Runnable onInterrupt = () -> { };

    @Override
    public void interrupt() {
      interrupts.incrementAndGet();
      onInterrupt.run();
    }
  }

  @Test
  void aDeadlineDisarmedInTimeServesTheNextAttempt() {
    InterruptAlarm deadline = new InterruptAlarm(new Owner(), false, null, 0);
    long now = clock.nanoTime();
    assertTrue(deadline.arm(now + SECOND));
    assertFalse(deadline.arm(now + SECOND), "armed twice: a nested attempt needs its own deadline");
    assertTrue(deadline.disarm(), "ended in time");
    assertTrue(deadline.arm(now + 2 * SECOND), "reused for the next attempt");
    assertEquals(now + 2 * SECOND, deadline.fireIfPassed(now), "the watchdog sees the new instant still to come");
  }

  @Test
  void aFiredDeadlineInterruptsItsOwnerOnceAndIsReusableAfterTheOwnerDisarmsIt() {
    Owner owner = new Owner();
    InterruptAlarm deadline = new InterruptAlarm(owner, false, null, 0);
    long at = clock.nanoTime() + SECOND;
    deadline.arm(at);

    assertEquals(at, deadline.fireIfPassed(at - 1), "one nanosecond early: still to come");
    assertEquals(0, owner.interrupts.get());
    assertEquals(AlarmWatchdog.NONE, deadline.fireIfPassed(at), "fired: nothing left for the watchdog to wait for");
    assertEquals(1, owner.interrupts.get());
    assertEquals(AlarmWatchdog.NONE, deadline.fireIfPassed(at + SECOND), "fires once");
    assertEquals(1, owner.interrupts.get());

    assertFalse(deadline.disarm(), "the owner learns that the deadline fired");
    assertTrue(deadline.arm(at + SECOND), "and the deadline serves its next attempt");
    assertEquals(at + SECOND, deadline.fireIfPassed(at));
    assertTrue(deadline.disarm());
  }

  @Test
  void whileTheInterruptIsBeingDeliveredTheDeadlineCannotBeArmedAgain() {
    Owner owner = new Owner();
    InterruptAlarm deadline = new InterruptAlarm(owner, false, null, 0);
    long at = clock.nanoTime() + SECOND;
    AtomicReference<Boolean> armedDuringDelivery = new AtomicReference<>();
    owner.onInterrupt = () -> armedDuringDelivery.set(deadline.arm(at + SECOND));
    deadline.arm(at);

    deadline.fireIfPassed(at);

    assertEquals(false, armedDuringDelivery.get(), "a next attempt must not take a deadline whose interrupt is in flight");
    assertFalse(deadline.disarm());
  }

  @Test
  void aOneAttemptDeadlineIsForgottenOnceItEndsWhetherInTimeOrFired() {
    Thread self = Thread.currentThread();
    InterruptAlarm reusable = new InterruptAlarm(self, false, null, 0);
    reusable.arm(clock.nanoTime() + SECOND);
    reusable.disarm();
    assertFalse(reusable.forgotten(), "a live thread's own deadline is kept for its next attempt");

    InterruptAlarm inTime = new InterruptAlarm(self, true, null, 0);
    inTime.arm(clock.nanoTime() + SECOND);
    assertFalse(inTime.forgotten(), "still armed");
    assertTrue(inTime.disarm());
    assertTrue(inTime.forgotten(), "served its one attempt");

    InterruptAlarm fired = new InterruptAlarm(self, true, null, 0);
    long at = clock.nanoTime() + SECOND;
    fired.arm(at);
    fired.fireIfPassed(at);
    assertTrue(Thread.interrupted(), "the owner was interrupted");
    assertFalse(fired.disarm());
    assertTrue(fired.forgotten(), "served its one attempt, though it fired");
  }

  @Test
  void theWatchdogWakesForTheEarliestDeadlineWhateverTheOrderTheyWereArmedIn() {
    AlarmWatchdog watchdog = new AlarmWatchdog(clock, clock.scheduler());
    long start = clock.nanoTime();
    Owner second = new Owner();
    Owner first = new Owner();
    Owner third = new Owner();
    arm(watchdog, second, start + 2 * SECOND);
    arm(watchdog, first, start + SECOND);
    arm(watchdog, third, start + 3 * SECOND);

    watchdog.run();
    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, first.interrupts.get(), "the earliest fired at its instant");
    assertEquals(0, second.interrupts.get() + third.interrupts.get());

    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, second.interrupts.get());
    assertEquals(0, third.interrupts.get());
    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, third.interrupts.get());
  }

  private static InterruptAlarm arm(AlarmWatchdog watchdog, Thread owner, long at) {
    InterruptAlarm deadline = new InterruptAlarm(owner, false, null, 0);
    watchdog.register(deadline);
    deadline.arm(at);
    return deadline;
  }

  @Test
  void aDeadlineArmedJustAsTheWatchdogWentIdleIsStillFired() {
    // The arm that races with the watchdog going idle saw it still pending and did not schedule
    // it: the watchdog's second look must find that deadline and schedule itself for it.
    AtomicInteger reads = new AtomicInteger();
    AtomicReference<Runnable> onSecondRead = new AtomicReference<>();
    TimeSource time = new TimeSource() {
      @Override
      public long nanoTime() {
        if (reads.incrementAndGet() == 2) {
          onSecondRead.get().run();
        }
        return clock.nanoTime();
      }

      @Override
      public void sleep(Duration duration) throws InterruptedException {
        clock.sleep(duration);
      }
    };
    AlarmWatchdog watchdog = new AlarmWatchdog(time, clock.scheduler());
    // A live owner, so that the watchdog keeps its idle deadline on the first look.
    InterruptAlarm deadline = new InterruptAlarm(Thread.currentThread(), false, null, 0);
    watchdog.register(deadline);
    long at = clock.nanoTime() + SECOND;
    onSecondRead.set(() -> deadline.arm(at));

    watchdog.run();
    clock.advance(Duration.ofSeconds(1));

    assertTrue(Thread.interrupted(), "fired at its instant");
  }

  @Test
  void theWatchdogDropsTheDeadlineOfAThreadThatEnded() {
    AlarmWatchdog watchdog = new AlarmWatchdog(clock, clock.scheduler());
    Owner ended = new Owner();
    InterruptAlarm deadline = new InterruptAlarm(ended, false, null, 0);
    watchdog.register(deadline);
    watchdog.run();

    // Dropped on that look: arming it now (nothing should) is no longer watched.
    deadline.arm(clock.nanoTime() + SECOND);
    watchdog.run();
    clock.advance(Duration.ofSeconds(2));
    assertEquals(0, ended.interrupts.get());
  }

  @Test
  void aSchedulerThatRefusedTheWatchdogIsAskedAgainOnTheNextArm() {
    ScheduledExecutorService shutDown = Executors.newSingleThreadScheduledExecutor();
    shutDown.shutdown();
    AlarmWatchdog watchdog = new AlarmWatchdog(clock, shutDown);
    long at = clock.nanoTime() + SECOND;

    assertThrows(RejectedExecutionException.class, () -> watchdog.armed(at));
    assertThrows(RejectedExecutionException.class, () -> watchdog.armed(at),
        "not left believing a run is pending, which would leave every later deadline unfired");
  }

  @Test
  void anAttemptAbandonedBeforeAWorkerTookItRunsInterruptedAndLeavesNoInterruptOnTheWorker() throws Throwable {
    AbandonableAttempt<Boolean> attempt = new AbandonableAttempt<>(
        () -> Thread.currentThread().isInterrupted(), CallContext.capture(), Thread.currentThread());
    attempt.abandon();
    AtomicBoolean interruptLeft = new AtomicBoolean(true);
    Thread worker = new Thread(() -> {
      attempt.run();
      interruptLeft.set(Thread.currentThread().isInterrupted());
    });
    worker.start();
    worker.join(10_000);

    assertFalse(worker.isAlive(), "the worker ended the abandoned attempt");
    assertTrue(attempt.outcome(), "it ran with the interrupt its deadline would have given it");
    assertFalse(interruptLeft.get(), "the pool's thread is clean for its next task");
    assertFalse(attempt.done(), "nobody waits for its outcome");
  }

  @Test
  void anAttemptAbandonedWhileRunningIsInterruptedOnceAndItsWorkerEndsClean() throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    AbandonableAttempt<String> attempt = new AbandonableAttempt<>(() -> {
      running.countDown();
      new CountDownLatch(1).await();
      return "never";
    }, CallContext.capture(), Thread.currentThread());
    AtomicBoolean interruptLeft = new AtomicBoolean(true);
    Thread worker = new Thread(() -> {
      attempt.run();
      interruptLeft.set(Thread.currentThread().isInterrupted());
    });
    worker.start();
    assertTrue(running.await(10, TimeUnit.SECONDS));

    attempt.abandon();
    worker.join(10_000);

    assertFalse(worker.isAlive(), "the worker finished with the abandoned attempt");
    assertFalse(interruptLeft.get());
    assertThrows(InterruptedException.class, attempt::outcome);
    assertFalse(Thread.currentThread().isInterrupted(), "the caller, gone, is not disturbed");
  }

  @Test
  void aCallerInterruptedWhileWaitingIsReleasedWithItsFlagCleared() {
    AbandonableAttempt<String> neverRun = new AbandonableAttempt<>(() -> "x", CallContext.capture(), Thread.currentThread());
    Thread.currentThread().interrupt();

    assertTrue(neverRun.await(), "released by the interrupt");
    assertFalse(Thread.currentThread().isInterrupted(), "the interrupt is reported, not left set");
  }

  @Test
  @Timeout(10)
  void theWorkerWakesTheParkedCallerWithTheOutcome() throws Throwable {
    Thread caller = Thread.currentThread();
    AbandonableAttempt<String> attempt = new AbandonableAttempt<>(() -> {
      // Answer only once the caller is parked, so that only the worker's wake-up can release it.
      while (caller.getState() != Thread.State.WAITING && caller.getState() != Thread.State.TIMED_WAITING) {
        Thread.onSpinWait();
      }
      return "answer";
    }, CallContext.capture(), caller);
    Thread worker = new Thread(attempt);
    worker.start();

    assertFalse(attempt.await(), "woken by the outcome, not by an interrupt");
    assertTrue(attempt.done());
    assertEquals("answer", attempt.outcome());
    worker.join(10_000);
  }
}
