package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** Many threads on one bucket: the compare-and-set loop must neither lose nor invent tokens. */
class TokenBucketRateLimiterConcurrencyTest {

  private static final int THREADS = 8;

  @Test
  void onAClockThatStandsStillExactlyBurstTokensAreAdmitted() throws Exception {
    TokenBucketRateLimiter limiter =
        new TokenBucketRateLimiter(
            RateLimitConfigs.config(100, Duration.ofSeconds(1), 250, Duration.ZERO),
            new ManualTimeSource(),
            new EventBus(Clock.systemUTC()));

    long admitted = hammer(limiter, () -> true, 2_000);

    assertEquals(250, admitted);
    assertEquals(0, limiter.availablePermits());
  }

  @Test
  void onTheSystemClockAdmissionsNeverExceedBurstPlusTheRateTimesElapsedTime() throws Exception {
    int burst = 20;
    int permitsPerSecond = 2_000;
    long start = System.nanoTime();
    TokenBucketRateLimiter limiter =
        new TokenBucketRateLimiter(
            RateLimitConfigs.config(permitsPerSecond, Duration.ofSeconds(1), burst, Duration.ZERO),
            TimeSource.system(),
            new EventBus(Clock.systemUTC()));
    // The 150 ms count from the first thread's first look, not from here: on a loaded machine the
    // threads may start later than that, and would then admit nothing.
    long window = Duration.ofMillis(150).toNanos();
    AtomicLong firstLook = new AtomicLong();
    BooleanSupplier running = () -> {
      long now = System.nanoTime();
      firstLook.compareAndSet(0, now);
      return now - firstLook.get() < window;
    };

    long admitted = hammer(limiter, running, Integer.MAX_VALUE);
    double elapsedSeconds = (System.nanoTime() - start) / 1e9;

    assertTrue(
        admitted <= burst + permitsPerSecond * elapsedSeconds,
        admitted + " admitted in " + elapsedSeconds + " s");
    // The bucket did refill while the threads ran: well beyond the first burst.
    assertTrue(admitted > burst + 10, admitted + " admitted");
  }

  /** Runs {@link #THREADS} threads calling acquire while {@code running}; returns the admitted. */
  private static long hammer(TokenBucketRateLimiter limiter, BooleanSupplier running, int calls)
      throws InterruptedException {
    AtomicLong admitted = new AtomicLong();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread thread =
          new Thread(
              () -> {
                awaitQuietly(go);
                for (int i = 0; i < calls && running.getAsBoolean(); i++) {
                  try {
                    limiter.acquire();
                    admitted.incrementAndGet();
                  } catch (RateLimitedException refused) {
                    // Expected most of the time: the threads ask far faster than the rate.
                  }
                }
              });
      thread.start();
      threads.add(thread);
    }
    go.countDown();
    for (Thread thread : threads) {
      thread.join(10_000);
      assertTrue(!thread.isAlive(), "a hammering thread did not finish");
    }
    return admitted.get();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
