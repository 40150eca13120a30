package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sample ring while the thread applying samples is held up, here by a listener of {@code
 * bulkhead.limit_changed} that does not return until the test lets it: the attempts completing
 * meanwhile go on at once; a reconfiguration waits for the drain under way; and one holding the
 * drainer's place applies, before it returns, the samples that arrived while it held it.
 */
class AdaptiveLimitHeldDrainerTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private final RecordedEvents events = new RecordedEvents();
  private final ManualTimeSource clock = new ManualTimeSource();
  private final AtomicBoolean holdNextChange = new AtomicBoolean(true);
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch letGo = new CountDownLatch(1);
  private AutoCloseable listener;

  @BeforeEach
  void holdTheFirstLimitChange() {
    listener = events.bus().subscribe(event -> {
      if (event.kind().equals("bulkhead.limit_changed") && holdNextChange.getAndSet(false)) {
        held.countDown();
        try {
          letGo.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    });
  }

  @AfterEach
  void letGoWhateverIsHeld() throws Exception {
    letGo.countDown();
    listener.close();
  }

  private static BulkheadConfig aimd(int initial, int max) {
    return BulkheadConfig.builder("bh").adaptive(Bulkhead.Adaptive.AIMD)
        .minConcurrent(1).initialConcurrent(initial).maxConcurrent(max).build();
  }

  private static CompletableFuture<Void> onNewThread(Runnable work) {
    return CompletableFuture.runAsync(work, runnable -> new Thread(runnable).start());
  }

  @Test
  void attemptsCompletingWhileTheDrainerIsHeldGoOnEvenWhenTheRingIsFull() throws Exception {
    AdaptiveLimit limit = new AdaptiveLimit(aimd(4, 10), clock, events.bus());
    // In use (10 in flight): 4 -> 5, reported on this thread, which the listener holds.
    CompletableFuture<Void> drainer = onNewThread(() -> limit.completed(MS, 10, false));
    assertTrue(held.await(10, TimeUnit.SECONDS), "the drainer reported the change");

    // Far more samples than the ring holds for a bulkhead of ten: the ones beyond it are dropped.
    CompletableFuture<Void> completions = onNewThread(() -> {
      for (int i = 0; i < 1_000; i++) {
        limit.completed(MS, 10, false);
      }
    });

    completions.get(10, TimeUnit.SECONDS);
    letGo.countDown();
    drainer.get(10, TimeUnit.SECONDS);
    assertEquals(10, limit.limit(), "the samples kept were applied once the drainer went on");
  }

  @Test
  void aSampleThatArrivesWhileAReconfigurationHoldsTheDrainersPlaceIsAppliedBeforeItReturns() throws Exception {
    AdaptiveLimit limit = new AdaptiveLimit(aimd(4, 100), clock, events.bus());
    // The lower maximum clamps 4 to 3, reported on the reconfiguring thread, which the listener holds.
    CompletableFuture<Void> reconfiguration = onNewThread(() -> limit.reconfigure(aimd(3, 3)));
    assertTrue(held.await(10, TimeUnit.SECONDS), "the reconfiguration reported the clamp");
    assertEquals(3, limit.limit());

    limit.completed(MS, 1, true); // a drop: 3 -> 2, once applied
    assertEquals(3, limit.limit(), "not applied yet: the reconfiguration holds the drainer's place");

    letGo.countDown();
    reconfiguration.get(10, TimeUnit.SECONDS);
    assertEquals(2, limit.limit());
  }

  /**
   * No sample is applied with the old bounds after a reconfiguration returns, so it must not start
   * while another thread is applying one. The real code cannot return while the drainer is held;
   * the tenth of a second only bounds how long the test looks for a reconfiguration that did not wait.
   */
  @Test
  void aReconfigurationWaitsForTheDrainUnderWayBeforeItTakesTheNewBounds() throws Exception {
    AdaptiveLimit limit = new AdaptiveLimit(aimd(4, 100), clock, events.bus());
    CompletableFuture<Void> drainer = onNewThread(() -> limit.completed(MS, 100, false)); // 4 -> 5, held
    assertTrue(held.await(10, TimeUnit.SECONDS), "the drainer reported the change");

    CompletableFuture<Void> reconfiguration = onNewThread(() -> limit.reconfigure(aimd(3, 3)));

    assertThrows(TimeoutException.class, () -> reconfiguration.get(100, TimeUnit.MILLISECONDS),
        "the reconfiguration waits while the drain is under way");
    assertEquals(5, limit.limit(), "the sample being applied was applied under the old bounds");
    letGo.countDown();
    drainer.get(10, TimeUnit.SECONDS);
    reconfiguration.get(10, TimeUnit.SECONDS);
    assertEquals(3, limit.limit(), "then clamped to the new maximum");
  }
}
