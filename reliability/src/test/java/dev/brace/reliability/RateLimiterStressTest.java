package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Many threads on one token bucket whose clock stands still within a phase and jumps between
 * phases (by whole and fractional token intervals, sometimes far beyond a full refill). Since time
 * does not move while the threads race, the tokens a phase may admit are known exactly.
 */
class RateLimiterStressTest {
  private static final int THREADS = 6;
  private static final int BURST = 5;
  /** 7 ms per token: a rate that is not a round number of anything. */
  private static final long INTERVAL_NANOS = 7_000_000L;

  /**
   * Refusing callers ({@code maxWait} 0) drain every phase: each phase admits exactly the tokens an
   * ideal bucket holds then (never more: burst + rate · elapsed; never fewer: no token lost to a
   * race), and the totals add up.
   */
  @Test
  void eachPhaseAdmitsExactlyWhatTheBucketHolds() throws Exception {
    Report report = new Report("stress-ratelimit-drain");
    int phases = Budget.pick(400, 5_000);
    SteppedClock clock = new SteppedClock(5_000_000_000L);
    TokenBucketRateLimiter limiter = limiter(clock, BURST, Duration.ZERO);
    AtomicInteger admittedInPhase = new AtomicInteger();
    AtomicLong refused = new AtomicLong();
    Random random = new Random(42);
    // The ideal bucket, in nanoseconds of credit: BURST tokens are BURST * INTERVAL_NANOS.
    long[] credit = {BURST * INTERVAL_NANOS};
    long[] admittedTotal = {0};

    PhasedStress.run(
        THREADS,
        phases,
        (thread, phase) -> {
          while (true) {
            try {
              limiter.acquire();
              admittedInPhase.incrementAndGet();
            } catch (RateLimitedException empty) {
              refused.incrementAndGet();
              return;
            }
          }
        },
        endedPhase -> {
          if (endedPhase >= 0) {
            long expected = credit[0] / INTERVAL_NANOS;
            assertEquals(expected, admittedInPhase.get(), "tokens admitted in phase " + endedPhase);
            credit[0] -= expected * INTERVAL_NANOS;
            admittedTotal[0] += expected;
            admittedInPhase.set(0);
          }
          long step = nextStep(random);
          clock.advance(Duration.ofNanos(step));
          credit[0] = Math.min(BURST * INTERVAL_NANOS, credit[0] + step);
        },
        120);
    report.put("phases", phases).put("threads", THREADS).put("admitted", admittedTotal[0])
        .put("refused", refused.get())
        .put("invariants", "admitted-per-phase==ideal-bucket(never-more,never-fewer)").print();
  }

  /**
   * Asynchronous callers reserve tokens up to {@code maxWait} ahead and cancel some of them before
   * they come, as a caller giving up does. Over any span of token instants, the tokens used never
   * exceed {@code burst + rate · span}.
   */
  @Test
  void reservedAndCancelledTokensNeverExceedBurstPlusRateTimesElapsed() throws Exception {
    Report report = new Report("stress-ratelimit-reserve");
    int phases = Budget.pick(400, 5_000);
    SteppedClock clock = new SteppedClock(5_000_000_000L);
    // A bucket of one: any extra token in a span shows at once.
    TokenBucketRateLimiter limiter = limiter(clock, 1, Duration.ofNanos(4 * INTERVAL_NANOS));
    ConcurrentLinkedQueue<Long> used = new ConcurrentLinkedQueue<>();
    AtomicLong cancelled = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    Random random = new Random(7);
    // Per thread: {token instant, reservation} of the tokens reserved and not yet come.
    List<List<long[]>> pending = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      pending.add(new ArrayList<>());
    }

    PhasedStress.run(
        THREADS,
        phases,
        (thread, phase) -> {
          ThreadLocalRandom dice = ThreadLocalRandom.current();
          List<long[]> mine = pending.get(thread);
          long now = clock.nanoTime();
          // A caller still waiting for its token may give up, as an async caller cancelled does.
          if (!mine.isEmpty() && dice.nextInt(3) == 0) {
            int victim = dice.nextInt(mine.size());
            if (mine.get(victim)[0] > now) {
              limiter.cancelReservation(mine.remove(victim)[1]);
              cancelled.incrementAndGet();
            }
          }
          for (int i = 0; i < 2; i++) {
            try {
              long reservation = limiter.reserveToken();
              mine.add(new long[] {now + limiter.waitFor(reservation), reservation});
            } catch (RateLimitedException full) {
              refused.incrementAndGet();
            }
          }
          // Tokens whose instant has come are used: no caller can cancel them any more.
          for (Iterator<long[]> it = mine.iterator(); it.hasNext(); ) {
            long instant = it.next()[0];
            if (instant <= now) {
              used.add(instant);
              it.remove();
            }
          }
        },
        endedPhase -> clock.advance(Duration.ofNanos(nextStep(random))),
        120);

    pending.forEach(mine -> mine.forEach(token -> used.add(token[0])));
    List<Long> instants = new ArrayList<>(used);
    Collections.sort(instants);
    long worst = worstExcess(instants, 1);
    report.put("phases", phases).put("threads", THREADS).put("used", instants.size())
        .put("cancelled", cancelled.get()).put("refused", refused.get()).put("worst_excess", worst)
        .put("invariants", "used-in-any-span<=burst+rate*span").print();
    assertTrue(worst <= 0, "some span held " + worst + " tokens more than burst + rate * span");
  }

  /**
   * @return the most by which the tokens used in any span [a, b] of token instants exceed {@code
   *     burst + (b - a) / INTERVAL}; 0 or less when the bound holds everywhere
   */
  static long worstExcess(List<Long> sortedInstants, int burst) {
    long worst = Long.MIN_VALUE;
    for (int first = 0; first < sortedInstants.size(); first++) {
      for (int last = first; last < sortedInstants.size(); last++) {
        long span = sortedInstants.get(last) - sortedInstants.get(first);
        long allowed = burst + span / INTERVAL_NANOS;
        if (last - first + 1 - allowed > worst) {
          worst = last - first + 1 - allowed;
        }
        if (span / INTERVAL_NANOS > sortedInstants.size()) {
          break;
        }
      }
    }
    return worst;
  }

  /** Mostly under one interval, sometimes several, now and then far past a full refill. */
  private static long nextStep(Random random) {
    switch (random.nextInt(6)) {
      case 0:
        return 0;
      case 1:
        return INTERVAL_NANOS;
      case 2:
        return INTERVAL_NANOS * (2 + random.nextInt(3));
      case 3:
        return INTERVAL_NANOS * BURST * 3;
      default:
        return 1 + random.nextInt((int) INTERVAL_NANOS);
    }
  }

  private static TokenBucketRateLimiter limiter(SteppedClock clock, int burst, Duration maxWait) {
    return new TokenBucketRateLimiter(
        RateLimitConfig.builder("stress")
            .permits(1)
            .per(Duration.ofNanos(INTERVAL_NANOS))
            .burst(burst)
            .maxWait(maxWait)
            .build(),
        clock,
        new EventBus(Clock.systemUTC()));
  }
}
