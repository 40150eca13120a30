package dev.brace.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.Criticality.Level;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An adaptive bulkhead shared by threads of every criticality, in alternating phases. In an
 * admission phase every thread tries to take permits and keeps what it gets; nothing completes, so
 * the limit stands still and the calls in flight only grow. The arbiter then checks that the calls
 * in flight never went above the limit, and that no level was refused before the calls in flight
 * reached its share (its guarantee). In a completion phase every thread completes what it holds,
 * on a clock the arbiter moved: fast and clean in some phases, slow or failing with timeouts in
 * others, so the limit climbs and falls; afterwards nothing is held and the limit is within its
 * bounds.
 */
class AdaptiveBulkheadStressTest {
  private static final int THREADS = 6;
  private static final int MIN = 3;
  private static final int MAX = 60;
  private static final Level[] LEVELS = Level.values();

  @ParameterizedTest
  @EnumSource(value = Bulkhead.Adaptive.class, names = {"AIMD", "GRADIENT2", "VEGAS"})
  void inFlightStaysWithinTheLimitAndEveryShareIsHonoured(Bulkhead.Adaptive algorithm) throws Exception {
    Report report = new Report("stress-adaptive-bulkhead-" + algorithm.name().toLowerCase());
    int phases = Budget.pick(120, 1_200);
    ManualTimeSource clock = new ManualTimeSource();
    SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(
        BulkheadConfig.builder("stress").adaptive(algorithm).minConcurrent(MIN).initialConcurrent(10).maxConcurrent(MAX).build(),
        clock, () -> {
          throw new AssertionError("maxWait is 0: nothing waits");
        },
        new EventBus(Clock.systemUTC()));
    List<List<Held>> held = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      held.add(new ArrayList<>());
    }
    AtomicIntegerArray refused = new AtomicIntegerArray(LEVELS.length);
    AtomicLong admitted = new AtomicLong();
    AtomicLong completed = new AtomicLong();
    int[] lowest = {Integer.MAX_VALUE};
    int[] highest = {0};
    int[] limitOfPhase = {bulkhead.limit()};

    PhasedStress.run(
        THREADS,
        phases,
        (thread, phase) -> {
          List<Held> mine = held.get(thread);
          if (phase % 2 == 0) {
            Level level = LEVELS[(thread + phase / 2) % LEVELS.length];
            int tries = 1 + ThreadLocalRandom.current().nextInt(MAX / 2);
            for (int i = 0; i < tries; i++) {
              if (bulkhead.takeNow(level)) {
                mine.add(new Held(clock.nanoTime(), bulkhead.inFlight()));
                admitted.incrementAndGet();
              } else {
                refused.incrementAndGet(level.ordinal());
              }
            }
          } else {
            boolean overloaded = (phase / 10) % 3 == 1;
            for (Held slot : mine) {
              boolean timedOut = overloaded && ThreadLocalRandom.current().nextInt(3) == 0;
              bulkhead.completed(clock.nanoTime() - slot.admittedAt(), slot.inFlight(), timedOut ? new TimeoutExceededException("stress", Duration.ofMillis(50)) : null);
              completed.incrementAndGet();
            }
            mine.clear();
          }
        },
        endedPhase -> {
          int limit = bulkhead.limit();
          if (endedPhase >= 0 && endedPhase % 2 == 0) {
            assertEquals(limitOfPhase[0], limit, "nothing completed, so the limit stood still");
            int inFlight = bulkhead.inFlight();
            assertTrue(inFlight <= limit, inFlight + " in flight above the limit " + limit);
            for (Level level : LEVELS) {
              if (refused.get(level.ordinal()) > 0) {
                assertTrue(inFlight >= bulkhead.threshold(level),
                    level + " refused with " + inFlight + " in flight, below its share " + bulkhead.threshold(level));
              }
            }
            // Latency of the coming completions: slow during overload, so latency-based algorithms back off too.
            boolean overloaded = ((endedPhase + 1) / 10) % 3 == 1;
            clock.advance(Duration.ofMillis(overloaded ? 50 + ThreadLocalRandom.current().nextInt(50) : 10));
          } else {
            assertEquals(0, bulkhead.inFlight(), "nothing held after a completion phase");
            assertTrue(limit >= MIN && limit <= MAX, "limit " + limit + " outside [" + MIN + ", " + MAX + "]");
            lowest[0] = Math.min(lowest[0], limit);
            highest[0] = Math.max(highest[0], limit);
            limitOfPhase[0] = limit;
            clock.advance(Duration.ofMillis(1));
          }
          for (int i = 0; i < LEVELS.length; i++) {
            refused.set(i, 0);
          }
        },
        120);
    report.put("algorithm", algorithm.name()).put("phases", phases).put("threads", THREADS)
        .put("admitted", admitted.get()).put("completed", completed.get())
        .put("lowest_limit", lowest[0]).put("highest_limit", highest[0])
        .put("invariants", "inFlight<=limit,refused-only-at-or-above-share,limit-in-bounds,nothing-held-between-rounds").print();
    assertEquals(admitted.get(), completed.get());
    assertTrue(highest[0] > lowest[0], "the limit moved: " + lowest[0] + ".." + highest[0]);
  }

  /** A permit taken, as the attempt pipeline notes it: when, and with how many calls in flight. */
  private record Held(long admittedAt, int inFlight) {}
}
