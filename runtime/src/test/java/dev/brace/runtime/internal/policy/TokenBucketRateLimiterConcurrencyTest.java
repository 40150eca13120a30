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

    long admitted = hammer(limiter, () -> true, 2_000, () -> {});

    assertEquals(250, admitted);
    assertEquals(0, limiter.availablePermits());
  }

  @Test
  void onTheSystemClockAdmissionsNeverExceedBurstPlusTheRateTimesElapsedTime() throws Exception {
    int burst = 20;
    int permitsPerSecond = 2_000;
    TokenBucketRateLimiter limiter =
        new TokenBucketRateLimiter(
            RateLimitConfigs.config(permitsPerSecond, Duration.ofSeconds(1), burst, Duration.ZERO),
            TimeSource.system(),
            new EventBus(Clock.systemUTC()));
    // The 150 ms start when the threads are released, not before they exist: on a loaded machine
    // starting them can take that long. The bucket holds at most its burst then, so the bound
    // below holds from that instant. The latch publishes both values to the threads.
    long[] startAndDeadline = new long[2];
    Runnable release = () -> {
      startAndDeadline[0] = System.nanoTime();
      startAndDeadline[1] = startAndDeadline[0] + Duration.ofMillis(150).toNanos();
    };

    long admitted = hammer(limiter, () -> System.nanoTime() - startAndDeadline[1] < 0, Integer.MAX_VALUE, release);
    double elapsedSeconds = (System.nanoTime() - startAndDeadline[0]) / 1e9;

    assertTrue(
        admitted <= burst + permitsPerSecond * elapsedSeconds,
        admitted + " admitted in " + elapsedSeconds + " s");
    // The bucket did refill while the threads ran: well beyond the first burst.
    assertTrue(admitted > burst + 10, admitted + " admitted");
  }

  /**
   * Runs {@link #THREADS} threads calling acquire while {@code running}; returns the admitted.
   * {@code beforeRelease} runs once every thread is started, just before they are let go.
   */
  private static long hammer(TokenBucketRateLimiter limiter, BooleanSupplier running, int calls, Runnable beforeRelease)
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
    beforeRelease.run();
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
