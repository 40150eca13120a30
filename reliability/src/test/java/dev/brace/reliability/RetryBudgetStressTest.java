package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.internal.policy.RetryBudget;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Many threads deposit into and withdraw from one retry budget while its clock jumps between
 * phases across slices of the window. The test keeps its own count of every deposit and every
 * granted retry per slice, and checks the budget's formula against that count, not against the
 * budget's own bookkeeping: retries in the window never exceed {@code percentCanRetry · calls +
 * minRetriesPerSecond · ttl}, and once every thread has asked until refused, they reach it exactly.
 */
class RetryBudgetStressTest {
  private static final int THREADS = 6;
  private static final double PERCENT = 0.25;
  private static final double MIN_PER_SECOND = 0.5;
  private static final Duration TTL = Duration.ofSeconds(10);
  private static final long SLICE_NANOS = TTL.toNanos() / 10;
  private static final double RESERVE = MIN_PER_SECOND * TTL.toSeconds();

  @Test
  void retriesNeverExceedTheFormulaAndReachItWhenAskedUntilRefused() throws Exception {
    Report report = new Report("stress-retrybudget");
    int phases = Budget.pick(600, 6_000);
    SteppedClock clock = new SteppedClock(100 * SLICE_NANOS + 1);
    RetryBudget budget = new RetryBudget("stress", PERCENT, MIN_PER_SECOND, TTL, clock);
    ConcurrentHashMap<Long, AtomicLong> deposits = new ConcurrentHashMap<>();
    ConcurrentHashMap<Long, AtomicLong> withdrawals = new ConcurrentHashMap<>();
    AtomicLong refusals = new AtomicLong();
    AtomicLong granted = new AtomicLong();
    Random random = new Random(11);
    long[] checks = {0};

    PhasedStress.run(
        THREADS,
        phases,
        (thread, phase) -> {
          long slice = clock.nanoTime() / SLICE_NANOS;
          ThreadLocalRandom dice = ThreadLocalRandom.current();
          boolean drain = phase % 2 == 1;
          // Even phases mix calls and retries; odd phases only retry, until refused.
          for (int i = 0; drain || i < 20; i++) {
            if (!drain && dice.nextInt(3) > 0) {
              budget.deposit();
              deposits.computeIfAbsent(slice, s -> new AtomicLong()).incrementAndGet();
            } else if (budget.tryWithdraw()) {
              withdrawals.computeIfAbsent(slice, s -> new AtomicLong()).incrementAndGet();
              granted.incrementAndGet();
            } else {
              refusals.incrementAndGet();
              if (drain) {
                return;
              }
            }
          }
        },
        endedPhase -> {
          if (endedPhase >= 0) {
            long slice = clock.nanoTime() / SLICE_NANOS;
            long calls = inWindow(deposits, slice);
            long retries = inWindow(withdrawals, slice);
            long allowed = (long) Math.floor(PERCENT * calls + RESERVE);
            assertTrue(retries <= Math.max(allowed, retriesBefore[0]),
                "phase " + endedPhase + ": " + retries + " retries in the window for " + calls + " calls");
            if (endedPhase % 2 == 1) {
              assertEquals(Math.max(allowed, retriesBefore[0]), retries,
                  "phase " + endedPhase + ": asked until refused, for " + calls + " calls");
              assertEquals(0, budget.available(), "available() after a refusal");
            }
            checks[0]++;
          }
          // Half the time stay in the slice, else move up to a whole window on.
          if (random.nextBoolean()) {
            clock.advance(Duration.ofNanos((1 + random.nextInt(12)) * SLICE_NANOS / 2));
          }
          long slice = clock.nanoTime() / SLICE_NANOS;
          retriesBefore[0] = inWindow(withdrawals, slice);
        },
        120);
    report.put("phases", phases).put("threads", THREADS).put("granted", granted.get())
        .put("refused", refusals.get()).put("window_checks", checks[0])
        .put("invariants", "retries<=percent*calls+reserve,exact-when-drained").print();
  }

  /** Retries already in the window when a phase starts (older slices may have had more calls). */
  private final long[] retriesBefore = {0};

  private static long inWindow(ConcurrentHashMap<Long, AtomicLong> perSlice, long currentSlice) {
    long sum = 0;
    for (long slice = currentSlice - 9; slice <= currentSlice; slice++) {
      AtomicLong count = perSlice.get(slice);
      if (count != null) {
        sum += count.get();
      }
    }
    return sum;
  }
}
