package dev.brace.runtime.internal.attempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Criticality;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.support.CallKeys;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link AttemptPipeline#admitBlocking} on the caller's thread: a refusal leaves the attempt's state holding
 * nothing, and a caller that waited for a full bulkhead's permit is admitted by that wait, with the
 * wait reported, on manual time (the only real wait is the test's bounded one for the waiter).
 */
class BlockingAdmissionTest {
  private static final long BOUND_SECONDS = 30;

  private final ManualTimeSource time = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());
  private final List<Object> waitedNanos = new CopyOnWriteArrayList<>();

  private AttemptPipeline pipelineWith(SemaphoreBulkhead bulkhead) {
    events.subscribe(event -> {
      if (event.kind().equals("bulkhead.waited")) {
        waitedNanos.add(event.attributes().get("waited_ns"));
      }
    });
    return AttemptPipeline.builder("Blocking.call", time, events).bulkhead(bulkhead, Criticality.Level.DEFAULT).build();
  }

  @Test
  void aRefusedBlockingAdmissionLeavesTheTicketHoldingNothingNotEvenItsRefusal() {
    SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(BulkheadConfig.builder("full").maxConcurrent(1).build(), time::scheduler, events);
    AttemptPipeline pipeline = pipelineWith(bulkhead);
    assertTrue(bulkhead.takeNow(Criticality.Level.DEFAULT));
    AttemptState state = new AttemptState().start(CallKeys.NONE);

    assertThrows(BulkheadFullException.class, () -> pipeline.admitBlocking(state));

    assertNull(state.refusal(), "the refusal was thrown, not kept in the state the next attempt reuses");
    assertFalse(state.admitted());
    assertEquals(1, bulkhead.inFlight(), "only the holder's permit is taken");
  }

  @Test
  void aCallerWhoWaitedForAPermitIsAdmittedByThatWaitAndTheWaitIsReported() throws Exception {
    SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(
        BulkheadConfig.builder("waits").maxConcurrent(1).maxWait("5s").build(), time::scheduler, events);
    AttemptPipeline pipeline = pipelineWith(bulkhead);
    AttemptState holder = new AttemptState().start(CallKeys.NONE);
    pipeline.admitBlocking(holder);
    AttemptState waiter = new AttemptState().start(CallKeys.NONE);
    CompletableFuture<Void> admitted = new CompletableFuture<>();
    Thread caller = new Thread(() -> {
      try {
        pipeline.admitBlocking(waiter);
        admitted.complete(null);
      } catch (Throwable refused) {
        admitted.completeExceptionally(refused);
      }
    }, "waiting-caller");
    caller.setDaemon(true);
    caller.start();
    awaitParked(caller);

    time.advance(Duration.ofMillis(300));
    pipeline.abandon(holder);

    admitted.get(BOUND_SECONDS, TimeUnit.SECONDS);
    assertTrue(waiter.admitted(), "the permit that came free admitted the waiting attempt");
    IllegalStateException again = assertThrows(IllegalStateException.class, () -> pipeline.admit(waiter));
    assertTrue(again.getMessage().contains("already admitted"), again.getMessage());
    assertEquals(List.of(300_000_000L), waitedNanos, "the wait for the permit is reported once, as long as it was");
    pipeline.abandon(waiter);
    assertEquals(0, bulkhead.inFlight());
  }

  /** Waits, bounded in real time, until {@code thread} parks: it is waiting for the permit. */
  private static void awaitParked(Thread thread) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
    while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
      assertTrue(System.nanoTime() < deadline, "the caller never waited for the permit");
      Thread.onSpinWait();
    }
  }
}
