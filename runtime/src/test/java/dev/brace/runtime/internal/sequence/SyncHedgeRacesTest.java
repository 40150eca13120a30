package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.spi.driver.DelegateCall;
import dev.brace.runtime.support.CallKeys;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A synchronous hedge group through a real pipeline ({@link PipelineRig}: a counting breaker, a
 * limiter of one token a second, a bulkhead of two), with the group decided, or a step failing,
 * at the moments only threads reach: while a hedge is being admitted on its worker, while a
 * stopped attempt's result still comes back, while a breaker records. Each moment is staged at a
 * hook (the token's wait event, the breaker's record or acquire) on the worker's own thread, and
 * every wait of the test is bounded in real time.
 */
class SyncHedgeRacesTest {
  private static final long BOUND_SECONDS = 30;

  /** Each attempt on a thread of its own; each entry completes with whether that thread was left interrupted. */
  private final List<CompletableFuture<Boolean>> workers = new CopyOnWriteArrayList<>();
  private final Executor threadPerAttempt = SyncHedgeTest.threadPerTask(workers);

  /** A hedge of one more attempt after 100 ms, answering {@code on}. */
  private PipelineRig rig(Class<? extends Throwable> on) {
    return new PipelineRig(0, false, 2, (steps, events) -> steps.hedge(
        new HedgePolicy(HedgeConfig.builder("hedge").delay("100ms").maxHedges(1).on(on).build(), PipelineRig.CALL,
            events, null, false),
        threadPerAttempt));
  }

  private static CompletableFuture<String> call(PipelineRig rig, DelegateCall attempt) {
    CompletableFuture<String> outcome = new CompletableFuture<>();
    Thread caller = new Thread(() -> {
      try {
        outcome.complete(SyncHedgeGroup.run(rig.policies, CallKeys.NONE, attempt));
      } catch (Throwable failure) {
        outcome.completeExceptionally(failure);
      }
    }, "caller");
    caller.setDaemon(true);
    caller.start();
    return outcome;
  }

  @Test
  void aHedgeAdmittedAfterTheGroupWasDecidedNeverReachesTheDelegate() throws Exception {
    PipelineRig rig = rig(IOException.class);
    CompletableFuture<String> firstAnswer = new CompletableFuture<>();
    CountDownLatch firstCalled = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    DelegateCall attempt = () -> {
      if (calls.incrementAndGet() == 1) {
        firstCalled.countDown();
        return firstAnswer.get(BOUND_SECONDS, TimeUnit.SECONDS);
      }
      return "second";
    };
    // The hedge waits on its worker for the token the first attempt took; as it takes it, the
    // first attempt answers and the group decides, stopping the hedge, which then goes on admitting.
    rig.events.subscribe(event -> {
      if (event.kind().equals("ratelimit.waited")) {
        firstAnswer.complete("first");
        awaitOwnInterrupt();
      }
    });

    CompletableFuture<String> call = call(rig, attempt);
    assertTrue(firstCalled.await(BOUND_SECONDS, TimeUnit.SECONDS));
    rig.time.advance(Duration.ofMillis(100));

    assertEquals("first", call.get(BOUND_SECONDS, TimeUnit.SECONDS));
    assertEquals(1, calls.get(), "the hedge, admitted once the group was decided, did not call the delegate");
    assertEquals(1, rig.breaker.released.get(), "the hedge's state was released without an outcome");
    assertEquals("", rig.held());
    assertEquals(List.of(false, false), interruptsLeft(), "the stop's interrupt does not outlive the hedge");
  }

  @Test
  void aStoppedAttemptWhoseResultStillCameBackIsRecordedAndReleased() throws Exception {
    PipelineRig rig = rig(IOException.class);
    CompletableFuture<String> lateAnswer = new CompletableFuture<>();
    CountDownLatch firstCalled = new CountDownLatch(1);
    CountDownLatch firstInterrupted = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    DelegateCall attempt = () -> {
      if (calls.incrementAndGet() > 1) {
        return "second";
      }
      firstCalled.countDown();
      // A dependency that does not answer interrupts: the stop reaches it, and it answers anyway.
      while (true) {
        try {
          return lateAnswer.get(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException stopped) {
          firstInterrupted.countDown();
        }
      }
    };

    CompletableFuture<String> call = call(rig, attempt);
    assertTrue(firstCalled.await(BOUND_SECONDS, TimeUnit.SECONDS));
    rig.time.advance(Duration.ofMillis(100));
    assertTrue(firstInterrupted.await(BOUND_SECONDS, TimeUnit.SECONDS), "the hedge decided and stopped the first attempt");
    assertFalse(call.isDone(), "the caller waits until every attempt has ended");
    lateAnswer.complete("first, late");

    assertEquals("second", call.get(BOUND_SECONDS, TimeUnit.SECONDS));
    assertEquals(2, rig.breaker.successes.get(), "the late result counts for the breaker as what the dependency did");
    assertEquals("", rig.held());
  }

  @Test
  void aBreakerThatThrowsWhileRecordingAFailureFailsTheAttemptInsteadOfHangingTheCall() throws Exception {
    PipelineRig rig = rig(IOException.class);
    IllegalStateException backendDown = new IllegalStateException("the breaker's store is down");
    rig.breaker.onRecord = () -> {
      throw backendDown;
    };

    CompletableFuture<String> call = call(rig, () -> {
      throw new IOException("down");
    });

    assertSame(backendDown, failureOf(call), "the step that threw decides, where the hedge does not answer it");
    assertEquals(0, rig.bulkhead.inFlight(), "the permit was returned all the same");
  }

  @Test
  void anAdmissionThatFailsWithoutARefusalIsTheAttemptsFailureAndStartsTheHedgeAtOnce() throws Exception {
    PipelineRig rig = rig(RuntimeException.class);
    AtomicInteger acquires = new AtomicInteger();
    rig.breaker.onAcquire = () -> {
      if (acquires.incrementAndGet() == 1) {
        throw new IllegalStateException("the breaker's store hiccuped");
      }
    };

    // The clock never moves: only the first attempt's failure can start the hedge.
    CompletableFuture<String> call = call(rig, () -> "second");

    assertEquals("second", call.get(BOUND_SECONDS, TimeUnit.SECONDS));
    assertEquals(2, acquires.get());
    assertEquals("", rig.held());
  }

  private static Throwable failureOf(CompletableFuture<String> call) throws Exception {
    try {
      call.get(BOUND_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException failed) {
      return failed.getCause();
    }
    throw new AssertionError("the call returned instead of failing");
  }

  private List<Boolean> interruptsLeft() throws Exception {
    List<Boolean> left = new ArrayList<>();
    for (CompletableFuture<Boolean> worker : workers) {
      left.add(worker.get(BOUND_SECONDS, TimeUnit.SECONDS));
    }
    return left;
  }

  /** Waits, on a worker's thread, until the group's stop has interrupted it (the flag is left set). */
  private static void awaitOwnInterrupt() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
    while (!Thread.currentThread().isInterrupted()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the hedge was never stopped");
      }
      LockSupport.parkNanos(1_000_000);
    }
  }
}
