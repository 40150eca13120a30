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

    AtomicLong admitted = new AtomicLong();
    hammer(limiter, admitted, () -> true, 2_000);

    assertEquals(250, admitted.get());
    assertEquals(0, limiter.availablePermits());
  }

  /**
   * Runs until a count of tokens is reached rather than for a span of wall time: on a loaded
   * machine the threads may get the processor late, and a span could end before the bucket had a
   * chance to refill. The bound is checked against the time actually spent, whatever it was.
   */
  @Test
  void onTheSystemClockAdmissionsNeverExceedBurstPlusTheRateTimesElapsedTime() throws Exception {
    int burst = 20;
    int permitsPerSecond = 2_000;
    long target = burst + 200;
    long start = System.nanoTime();
    TokenBucketRateLimiter limiter =
        new TokenBucketRateLimiter(
            RateLimitConfigs.config(permitsPerSecond, Duration.ofSeconds(1), burst, Duration.ZERO),
            TimeSource.system(),
            new EventBus(Clock.systemUTC()));
    AtomicLong admitted = new AtomicLong();
    // A safety stop only (the target takes 0.1 s of refill); reaching it fails the test below.
    long giveUp = start + Duration.ofSeconds(60).toNanos();

    hammer(limiter, admitted, () -> admitted.get() < target && System.nanoTime() - giveUp < 0, Integer.MAX_VALUE);
    double elapsedSeconds = (System.nanoTime() - start) / 1e9;

    assertTrue(admitted.get() >= target, "the bucket refilled: " + admitted + " admitted in " + elapsedSeconds + " s");
    assertTrue(
        admitted.get() <= burst + permitsPerSecond * elapsedSeconds,
        admitted + " admitted in " + elapsedSeconds + " s");
  }

  /** Runs {@link #THREADS} threads calling acquire while {@code running}, counting admissions. */
  private static void hammer(TokenBucketRateLimiter limiter, AtomicLong admitted, BooleanSupplier running, int calls)
      throws InterruptedException {
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
      thread.join(90_000);
      assertTrue(!thread.isAlive(), "a hammering thread did not finish");
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
