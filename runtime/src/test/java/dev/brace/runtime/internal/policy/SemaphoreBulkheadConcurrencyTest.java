package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Sixteen threads contending for four permits: the bound holds and nothing leaks. */
class SemaphoreBulkheadConcurrencyTest {

  private static final int MAX_CONCURRENT = 4;
  private static final int THREADS = 16;
  private static final int ROUNDS = 2_000;

  @Test
  void neverMoreHoldersThanPermitsAndAllReturnedAtTheEnd() throws Exception {
    SemaphoreBulkhead bulkhead =
        new SemaphoreBulkhead(
            BulkheadConfig.builder("bh")
                .maxConcurrent(MAX_CONCURRENT)
                .maxWait(Duration.ofSeconds(30))
                .build(),
            new ManualTimeSource()::scheduler,
            new EventBus(Clock.systemUTC()));
    AtomicInteger holders = new AtomicInteger();
    AtomicInteger mostHolders = new AtomicInteger();
    AtomicInteger refusals = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      // Half the threads wait for a permit, half only take a free one: both paths contend.
      boolean waits = t % 2 == 0;
      Thread thread =
          new Thread(
              () -> {
                awaitQuietly(go);
                for (int i = 0; i < ROUNDS; i++) {
                  if (waits) {
                    try {
                      bulkhead.acquire();
                    } catch (BulkheadFullException refused) {
                      refusals.incrementAndGet();
                      continue;
                    }
                  } else if (!bulkhead.tryAcquire()) {
                    continue;
                  }
                  int now = holders.incrementAndGet();
                  mostHolders.accumulateAndGet(now, Math::max);
                  Thread.yield();
                  holders.decrementAndGet();
                  bulkhead.release();
                }
              });
      thread.start();
      threads.add(thread);
    }
    go.countDown();
    for (Thread thread : threads) {
      thread.join(60_000);
      assertFalse(thread.isAlive(), "a thread is stuck: a wake-up was lost");
    }

    assertTrue(mostHolders.get() <= MAX_CONCURRENT, "holders peaked at " + mostHolders.get());
    assertTrue(mostHolders.get() > 1, "the threads never overlapped; the test proved nothing");
    assertEquals(0, refusals.get(), "a waiter gave up although permits kept coming free");
    assertEquals(0, bulkhead.inFlight());
    assertEquals(MAX_CONCURRENT, bulkhead.available());
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
