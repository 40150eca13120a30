package dev.brace.runtime.internal.policy;

import static dev.brace.runtime.internal.policy.SemaphoreBulkheadTest.awaitParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Criticality;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RecordedMetrics;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A caller with less time left than the bulkhead's {@code maxWait} (what remains of its deadline):
 * it waits no longer than that, and running out of its own time is not the bulkhead's refusal; and
 * the waits and refusals a bound metrics listener is told of.
 */
class SemaphoreBulkheadWithinTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

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
  void aCallerWithLittleTimeLeftTakesAFreePermitAtOnce() {
    SemaphoreBulkhead bulkhead = bulkhead(2, Duration.ofSeconds(30));

    assertTrue(bulkhead.acquireWithin(Criticality.Level.CRITICAL, MS));

    assertEquals(1, bulkhead.inFlight());
  }

  @Test
  void aCallerWhoseTimeRunsOutBeforeMaxWaitGivesUpWithoutARefusal() throws Exception {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofSeconds(30));
    bulkhead.acquire();
    AtomicReference<Thread> thread = new AtomicReference<>();
    CompletableFuture<Boolean> waiter = within(bulkhead, 50 * MS, thread);
    awaitParked(waiter, thread::get);

    clock.advance(Duration.ofMillis(50));

    assertFalse(waiter.get(10, TimeUnit.SECONDS), "the caller's time ran out, no permit was taken");
    assertEquals(1, bulkhead.inFlight());
    assertEquals(List.of(), events.of("bulkhead.rejected"), "the bulkhead refused no one");
  }

  @Test
  void aPermitReleasedWithinTheCallersTimeIsTaken() throws Exception {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofSeconds(30));
    bulkhead.acquire();
    AtomicReference<Thread> thread = new AtomicReference<>();
    CompletableFuture<Boolean> waiter = within(bulkhead, 50 * MS, thread);
    awaitParked(waiter, thread::get);

    bulkhead.release();

    assertTrue(waiter.get(10, TimeUnit.SECONDS));
    assertEquals(1, bulkhead.inFlight());
  }

  /** When the caller's time and {@code maxWait} run out together, it is the bulkhead's wait that ended. */
  @Test
  void aCallerWithExactlyMaxWaitLeftIsRefusedByTheBulkheadWhenNoPermitCame() throws Exception {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofMillis(50));
    bulkhead.acquire();
    AtomicReference<Thread> thread = new AtomicReference<>();
    CompletableFuture<Boolean> waiter = within(bulkhead, 50 * MS, thread);
    awaitParked(waiter, thread::get);

    clock.advance(Duration.ofMillis(50));

    Throwable ended = assertThrows(Exception.class, () -> waiter.get(10, TimeUnit.SECONDS));
    assertInstanceOf(BulkheadFullException.class, ended.getCause());
    assertEquals(1, events.of("bulkhead.rejected").size());
  }

  @Test
  void anInterruptedCallerWithLittleTimeLeftIsRefusedWithTheFlagKept() {
    SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ofSeconds(30));
    bulkhead.acquire();
    Thread.currentThread().interrupt();

    BulkheadFullException refused =
        assertThrows(BulkheadFullException.class, () -> bulkhead.acquireWithin(Criticality.Level.CRITICAL, 50 * MS));

    assertInstanceOf(InterruptedException.class, refused.getCause());
    assertTrue(Thread.interrupted(), "the interrupt is set again for the caller's code");
    assertEquals(1, bulkhead.inFlight());
  }

  @Test
  void aBoundMetricsListenerIsToldOfEachRefusalAndEachWait() throws Exception {
    RecordedMetrics metrics = new RecordedMetrics();
    try (AutoCloseable binding = events.bus().bindMetrics(metrics)) {
      SemaphoreBulkhead bulkhead = bulkhead(1, Duration.ZERO);
      bulkhead.acquire();

      assertThrows(BulkheadFullException.class, bulkhead::acquire);
      bulkhead.waited(3 * MS);

      assertEquals(List.of("bulkhead bh rejected", "bulkhead bh waited 3000000"), metrics.starting("bulkhead bh"));
    }
  }

  private static CompletableFuture<Boolean> within(
      SemaphoreBulkhead bulkhead, long limitNanos, AtomicReference<Thread> thread) {
    Supplier<Boolean> acquire = () -> {
      thread.set(Thread.currentThread());
      return bulkhead.acquireWithin(Criticality.Level.CRITICAL, limitNanos);
    };
    return CompletableFuture.supplyAsync(acquire, runnable -> new Thread(runnable).start());
  }
}
