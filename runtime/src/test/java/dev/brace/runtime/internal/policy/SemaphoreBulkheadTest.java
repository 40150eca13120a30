package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.RecordedEvents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Criticality;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Refusal, waiting and interruption of one bulkhead, coordinated without sleeps. */
class SemaphoreBulkheadTest {

  private final RecordedEvents events = new RecordedEvents();
  private final ManualTimeSource clock = new ManualTimeSource();

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private SemaphoreBulkhead bulkhead(int maxConcurrent, Duration maxWait) {
    return new SemaphoreBulkhead(
        BulkheadConfig.builder("bh").maxConcurrent(maxConcurrent).maxWait(maxWait).build(),
        clock::scheduler,
        events.bus());
  }

  @Test
  void refusesAtOnceWhenFullAndReportsIt() {
    SemaphoreBulkhead bulkhead = bulkhead(2, Duration.ZERO);
    bulkhead.acquire();
    assertTrue(bulkhead.tryAcquire());

    BulkheadFullException refused = assertThrows(BulkheadFullException.class, bulkhead::acquire);

    assertNull(refused.getCause());
    assertEquals("bh", refused.instance());
    assertFalse(bulkhead.tryAcquire());
    assertEquals(2, bulkhead.inFlight());
    assertEquals(0, bulkhead.available());
    Event event = events.last();
    assertEquals("bulkhead.rejected", event.kind());
    assertEquals(2, event.attributes().get("max_concurrent"));
    assertEquals(2, event.attributes().get("in_flight"));
  }

  @Test
  void aWaiterGetsThePermitAnotherThreadReleases() throws Exception {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofSeconds(30));
    bulkhead.acquire();
    AtomicReference<Thread> waiterThread = new AtomicReference<>();
    CompletableFuture<Void> waiter = acquireOnNewThread(bulkhead, waiterThread);
    awaitParked(waiter, waiterThread::get);

    bulkhead.release();

    waiter.get(10, TimeUnit.SECONDS);
    assertEquals(1, bulkhead.inFlight());
  }

  @Test
  void everyReleaseWakesADifferentWaiter() throws Exception {
    SemaphoreBulkhead bulkhead = bulkhead(2, Duration.ofSeconds(30));
    bulkhead.acquire();
    bulkhead.acquire();
    AtomicReference<Thread> first = new AtomicReference<>();
    AtomicReference<Thread> second = new AtomicReference<>();
    CompletableFuture<Void> firstWaiter = acquireOnNewThread(bulkhead, first);
    CompletableFuture<Void> secondWaiter = acquireOnNewThread(bulkhead, second);
    awaitParked(firstWaiter, first::get);
    awaitParked(secondWaiter, second::get);

    bulkhead.release();
    bulkhead.release();

    CompletableFuture.allOf(firstWaiter, secondWaiter).get(10, TimeUnit.SECONDS);
    assertEquals(2, bulkhead.inFlight());
  }

  private static CompletableFuture<Void> acquireOnNewThread(
      SemaphoreBulkhead bulkhead, AtomicReference<Thread> thread) {
    return CompletableFuture.runAsync(
        () -> {
          thread.set(Thread.currentThread());
          bulkhead.acquire();
        },
        runnable -> new Thread(runnable).start());
  }

  @Test
  void aWaitThatOutlastsMaxWaitOnTheRegistrysClockIsRefused() throws Exception {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofMillis(50));
    bulkhead.acquire();
    AtomicReference<Thread> waiterThread = new AtomicReference<>();
    CompletableFuture<BulkheadFullException> waiter =
        CompletableFuture.supplyAsync(
            () -> {
              waiterThread.set(Thread.currentThread());
              return assertThrows(BulkheadFullException.class, bulkhead::acquire);
            },
            runnable -> new Thread(runnable).start());
    awaitParked(waiter, waiterThread::get);

    clock.advance(Duration.ofMillis(49));
    assertFalse(waiter.isDone(), "refused before maxWait passed on the clock");
    clock.advance(Duration.ofMillis(1));

    assertNull(waiter.get(10, TimeUnit.SECONDS).getCause());
    assertEquals(1, bulkhead.inFlight());
  }

  @Test
  void anAlreadyInterruptedCallerThatMustWaitIsRefusedWithTheFlagKept() {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofSeconds(30));
    bulkhead.acquire();

    Thread.currentThread().interrupt();
    BulkheadFullException refused = assertThrows(BulkheadFullException.class, bulkhead::acquire);

    assertInstanceOf(InterruptedException.class, refused.getCause());
    assertTrue(Thread.interrupted());
    assertEquals(1, bulkhead.inFlight());
  }

  @Test
  void aWaiterInterruptedWhileParkedIsRefusedWithTheFlagKept() throws Exception {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofSeconds(30));
    bulkhead.acquire();
    AtomicReference<Thread> waiterThread = new AtomicReference<>();
    CompletableFuture<Boolean> flagKept = new CompletableFuture<>();
    CompletableFuture<BulkheadFullException> waiter =
        CompletableFuture.supplyAsync(
            () -> {
              waiterThread.set(Thread.currentThread());
              try {
                bulkhead.acquire();
                return null;
              } catch (BulkheadFullException refused) {
                flagKept.complete(Thread.currentThread().isInterrupted());
                return refused;
              }
            },
            runnable -> new Thread(runnable).start());
    awaitParked(waiter, waiterThread::get);

    waiterThread.get().interrupt();

    assertInstanceOf(InterruptedException.class, waiter.get(10, TimeUnit.SECONDS).getCause());
    assertTrue(flagKept.get());
    assertEquals(1, bulkhead.inFlight());
    // The interrupted waiter took nothing: the holder's release frees the bulkhead.
    bulkhead.release();
    assertEquals(0, bulkhead.inFlight());
  }

  @Test
  void aWaitForAPermitIsReportedInMillisecondsAndNanoseconds() {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofSeconds(30));
    bulkhead.waited(1_500_000_123L);
    Event waited = events.last();
    assertEquals("bulkhead.waited", waited.kind());
    assertEquals("bh", waited.instance());
    assertEquals(java.util.Map.of("waited_ms", 1_500L, "waited_ns", 1_500_000_123L), waited.attributes());
  }

  /** Starts a thread that takes a permit of {@code level}, and returns once it waits for one. */
  private static CompletableFuture<Void> parkedWaiter(SemaphoreBulkhead bulkhead, Criticality.Level level) {
    AtomicReference<Thread> thread = new AtomicReference<>();
    CompletableFuture<Void> admitted = CompletableFuture.runAsync(
        () -> {
          thread.set(Thread.currentThread());
          bulkhead.acquire(level);
        },
        runnable -> new Thread(runnable).start());
    awaitParked(admitted, thread::get);
    return admitted;
  }

  @Test
  void aHigherLimitAdmitsEveryWaiterItMakesRoomFor() throws Exception {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofSeconds(30));
    bulkhead.acquire();
    CompletableFuture<Void> first = parkedWaiter(bulkhead, Criticality.Level.CRITICAL);
    CompletableFuture<Void> second = parkedWaiter(bulkhead, Criticality.Level.CRITICAL);

    bulkhead.reconfigure(BulkheadConfig.builder("bh").maxConcurrent(3).maxWait(Duration.ofSeconds(30)).build());

    first.get(10, TimeUnit.SECONDS);
    second.get(10, TimeUnit.SECONDS);
    assertEquals(3, bulkhead.inFlight(), "both waiters hold permits, with no release in between");
  }

  @Test
  void aWaiterThatWasAdmittedNoLongerCountsAmongTheWaitersOfItsLevel() throws Exception {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofSeconds(30));
    bulkhead.acquire();
    CompletableFuture<Void> critical = parkedWaiter(bulkhead, Criticality.Level.CRITICAL);
    bulkhead.release();
    critical.get(10, TimeUnit.SECONDS);
    CompletableFuture<Void> normal = parkedWaiter(bulkhead, Criticality.Level.DEFAULT);

    bulkhead.release();

    normal.get(10, TimeUnit.SECONDS);
    assertEquals(1, bulkhead.inFlight(), "the permit went to the DEFAULT waiter, the only one left");
  }

  @Test
  void releasingMoreThanWasTakenFailsInsteadOfGrowingThePool() {
    SemaphoreBulkhead bulkhead = bulkhead(2, Duration.ZERO);
    assertThrows(IllegalStateException.class, bulkhead::release);

    bulkhead.acquire();
    bulkhead.release();
    assertThrows(IllegalStateException.class, bulkhead::release);

    assertEquals(2, bulkhead.available());
    assertEquals(0, bulkhead.inFlight());
  }

  /** Waits, spinning rather than sleeping, until the thread parks inside the bulkhead. */
  static void awaitParked(CompletableFuture<?> task, Supplier<Thread> thread) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (thread.get() == null || thread.get().getState() != Thread.State.WAITING) {
      assertFalse(task.isDone(), "the waiter finished instead of waiting: " + task);
      assertTrue(System.nanoTime() - deadline < 0, "the waiter never parked");
      Thread.onSpinWait();
    }
  }
}
