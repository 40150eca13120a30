package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The waiting path Lincheck cannot model (parking with a deadline): many more threads than
 * permits, each taking, holding briefly and returning permits in a loop, with {@code maxWait} (2 s)
 * thousands of times longer than any hold, so a waiter refused without an interrupt was forgotten. Between phases the arbiter checks that no permit is held, and during
 * phases a watcher interrupts waiting threads at random.
 */
class BulkheadStressTest {
  private static final int THREADS = 8;
  private static final int MAX_CONCURRENT = 3;

  /** Runs the waiters' maxWait deadlines on the system clock. */
  private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "bulkhead-deadlines");
    thread.setDaemon(true);
    return thread;
  });

  @Test
  void boundHoldsNoPermitLeaksAndNoWaiterIsForgotten() throws Exception {
    Report report = new Report("stress-bulkhead-waiting");
    int phases = Budget.pick(150, 2_000);
    SemaphoreBulkhead bulkhead =
        new SemaphoreBulkhead(
            BulkheadConfig.builder("stress").maxConcurrent(MAX_CONCURRENT).maxWait(Duration.ofSeconds(2)).build(),
            () -> DEADLINES,
            new EventBus(Clock.systemUTC()));
    AtomicInteger holders = new AtomicInteger();
    AtomicInteger mostHolders = new AtomicInteger();
    AtomicLong taken = new AtomicLong();
    AtomicLong interruptedWhileWaiting = new AtomicLong();
    AtomicLong refusedWithoutInterrupt = new AtomicLong();
    long[] checks = {0};

    PhasedStress.run(
        THREADS,
        phases,
        (thread, phase) -> {
          ThreadLocalRandom dice = ThreadLocalRandom.current();
          for (int i = 0; i < 20; i++) {
            // Every eighth phase some threads arrive interrupted: a wait must end in a refusal.
            if (phase % 8 == 7 && thread > 0 && dice.nextInt(4) == 0) {
              Thread.currentThread().interrupt();
            }
            try {
              bulkhead.acquire();
            } catch (BulkheadFullException refused) {
              if (refused.getCause() instanceof InterruptedException) {
                interruptedWhileWaiting.incrementAndGet();
                assertTrue(Thread.interrupted(), "the interrupt flag is set again after the refusal");
              } else {
                refusedWithoutInterrupt.incrementAndGet();
              }
              continue;
            }
            // A thread interrupted but not refused (a permit was free) still owns its flag.
            Thread.interrupted();
            taken.incrementAndGet();
            int now = holders.incrementAndGet();
            mostHolders.accumulateAndGet(now, Math::max);
            if (dice.nextInt(3) == 0) {
              LockSupport.parkNanos(dice.nextInt(50_000));
            } else {
              Thread.yield();
            }
            holders.decrementAndGet();
            bulkhead.release();
          }
        },
        endedPhase -> {
          assertEquals(0, bulkhead.inFlight(), "permits held between phases");
          assertEquals(MAX_CONCURRENT, bulkhead.available(), "permits free between phases");
          assertTrue(mostHolders.get() <= MAX_CONCURRENT, "at most " + MAX_CONCURRENT + " holders, saw " + mostHolders);
          checks[0]++;
        },
        60);
    report.put("phases", phases).put("threads", THREADS).put("permits_taken", taken.get())
        .put("most_holders", mostHolders.get()).put("interrupted_waiters", interruptedWhileWaiting.get())
        .put("refused_without_interrupt", refusedWithoutInterrupt.get()).put("quiescent_checks", checks[0])
        .put("invariants", "holders<=maxConcurrent,inFlight==0-between-phases,no-forgotten-waiter").print();
    assertEquals(0, refusedWithoutInterrupt.get(), "a waiter timed out although permits kept coming free");
  }
}
