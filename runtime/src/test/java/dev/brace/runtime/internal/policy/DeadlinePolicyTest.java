package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Timeout;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RecordedMetrics;
import dev.brace.runtime.config.DeadlineConfig;
import dev.brace.runtime.internal.event.EventBus;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A call's part in the deadlines of its callers, driven directly: what remains of the deadline it
 * inherits, the timer that bounds an attempt by it, and the failure of an attempt that ran past it.
 */
class DeadlinePolicyTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final ManualTimeSource clock = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private DeadlinePolicy policy(boolean inherit, Supplier<ScheduledExecutorService> scheduler) {
    return new DeadlinePolicy(DeadlineConfig.builder("Api.get").inherit(inherit).build(), "Api.get", clock, scheduler, events);
  }

  @Test
  void aCallThatDoesNotInheritIsUnderNoDeadlineEvenInsideOne() {
    DeadlineConfig mustFinish = DeadlineConfig.builder("Api.write").inherit(false).build();
    DeadlinePolicy write = new DeadlinePolicy(mustFinish, "Api.write", clock, clock::scheduler, events);
    DeadlinePolicy read = policy(true, clock::scheduler);
    assertSame(mustFinish, write.config());

    try (Deadline.Scope request = Deadline.open(Duration.ofSeconds(1), clock)) {
      clock.advance(Duration.ofMillis(400));
      assertEquals(DeadlinePolicy.NONE, write.remainingNanos(), "a write that must finish ignores its caller's deadline");
      assertEquals(TimeUnit.MILLISECONDS.toNanos(600), read.remainingNanos());
    }
  }

  @Test
  void anAttemptUnderAnInheritedDeadlineAnswersInTimeAndEndsWithTheDeadlinesFailureWhenLate() throws Throwable {
    RecordedMetrics metrics = new RecordedMetrics();
    events.bindMetrics(metrics);
    DeadlinePolicy deadlines = policy(true, clock::scheduler);
    TimeoutPolicy timer = deadlines.timer();
    assertSame(timer, deadlines.timer(), "made once");

    long end = clock.nanoTime() + SECOND;
    TimeoutPolicy.Expiry expiry = (at, budget) -> deadlines.exceeded(at, budget, clock.nanoTime());
    assertEquals("answer", timer.call(() -> "answer", end, SECOND, Timeout.Mode.INTERRUPT, expiry));

    DeadlineExceededException late = assertThrows(DeadlineExceededException.class, () -> timer.call(() -> {
      clock.sleep(Duration.ofHours(1));
      return "too late";
    }, end, SECOND, Timeout.Mode.INTERRUPT, expiry));
    assertEquals(end, late.deadline().nanoTime(), "the deadline that passed");
    assertEquals(Duration.ofSeconds(1), late.deadline().budget());
    assertEquals(Duration.ZERO, late.overrun(), "interrupted at the deadline itself");
    assertFalse(Thread.currentThread().isInterrupted(), "the interrupt that cut it off is not left behind");
    assertEquals(List.of("deadline Api.get deadlineExceeded"), metrics.starting("deadline "));
  }

  /**
   * The first call to need the timer makes it while a second one waits: the second gets the same
   * timer once the first is done, rather than making its own or waiting for ever.
   */
  @Test
  void twoThreadsAskingForTheTimerAtOnceShareTheOneMade() throws InterruptedException {
    CountDownLatch making = new CountDownLatch(1);
    CountDownLatch made = new CountDownLatch(1);
    AtomicInteger asked = new AtomicInteger();
    DeadlinePolicy deadlines = policy(true, () -> {
      asked.incrementAndGet();
      making.countDown();
      await(made);
      return clock.scheduler();
    });
    AtomicReference<TimeoutPolicy> first = new AtomicReference<>();
    AtomicReference<TimeoutPolicy> second = new AtomicReference<>();
    Thread maker = new Thread(() -> first.set(deadlines.timer()));
    maker.setDaemon(true);
    maker.start();
    assertTrue(making.await(10, TimeUnit.SECONDS));

    Thread waiter = new Thread(() -> second.set(deadlines.timer()));
    waiter.setDaemon(true);
    waiter.start();
    // Parked on the lock the maker holds.
    while (waiter.getState() != Thread.State.WAITING) {
      assertTrue(waiter.isAlive(), "the second asker must wait for the timer being made");
      Thread.onSpinWait();
    }
    made.countDown();
    maker.join(10_000);
    waiter.join(10_000);

    assertFalse(waiter.isAlive(), "the second asker was let through once the timer was made");
    assertSame(first.get(), second.get());
    assertEquals(1, asked.get(), "one timer, on one scheduler");
  }

  private static void await(CountDownLatch latch) {
    try {
      assertTrue(latch.await(10, TimeUnit.SECONDS));
    } catch (InterruptedException interrupted) {
      throw new AssertionError(interrupted);
    }
  }
}
