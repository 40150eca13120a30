package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Each algorithm against the library whose update rule it follows (Netflix concurrency-limits
 * 0.5.4, a test dependency): the same samples, one at a time, must move both limits alike, sample
 * by sample. The samples go through a healthy phase, a latency rise, drops, recovery and an idle
 * (app-limited) stretch, so every branch of every rule is taken.
 */
class LimitAlgorithmTest {
  private static final int MIN = 2;
  private static final int MAX = 120;
  private static final int INITIAL = 20;

  @Test
  void aimdMovesAsNetflixAimdLimit() {
    Limit netflix = AIMDLimit.newBuilder().initialLimit(INITIAL).minLimit(MIN).maxLimit(MAX)
        .timeout(1, TimeUnit.DAYS).build();
    assertSameTrajectory(netflix, new LimitAlgorithm.Aimd(MIN, MAX, INITIAL));
  }

  @Test
  void gradient2MovesAsNetflixGradient2Limit() {
    Limit netflix = Gradient2Limit.newBuilder().initialLimit(INITIAL).minLimit(MIN).maxConcurrency(MAX).build();
    assertSameTrajectory(netflix, new LimitAlgorithm.Gradient2(MIN, MAX, INITIAL));
  }

  @Test
  void vegasMovesAsNetflixVegasLimit() {
    // Vegas forgets its lowest latency after a random number of samples; both probe never here.
    Limit netflix = VegasLimit.newBuilder().initialLimit(INITIAL).maxConcurrency(MAX)
        .probeMultiplier(1_000_000).build();
    assertSameTrajectory(netflix, new LimitAlgorithm.Vegas(1, MAX, INITIAL, 1_000_000));
  }

  @Test
  void aimdGrowsWhileBusyAndBacksOffOnADropWithinItsBounds() {
    LimitAlgorithm.Aimd aimd = new LimitAlgorithm.Aimd(5, 12, 10);
    assertEquals(11, aimd.update(ms(10), 10, false));
    assertEquals(11, aimd.update(ms(10), 2, false), "an idle bulkhead learns nothing");
    assertEquals(12, aimd.update(ms(10), 11, false));
    assertEquals(12, aimd.update(ms(10), 12, false), "never above the ceiling");
    assertEquals(10, aimd.update(ms(10), 12, true));
    assertEquals(9, aimd.update(ms(10), 12, true));
    for (int i = 0; i < 10; i++) {
      aimd.update(ms(10), 12, true);
    }
    assertEquals(5, aimd.update(ms(10), 12, true), "never below minConcurrent");
  }

  @Test
  void gradient2ShrinksWhenLatencyRisesAndGrowsWhileItIsFlat() {
    LimitAlgorithm.Gradient2 gradient = new LimitAlgorithm.Gradient2(1, 100, 20);
    int limit = 20;
    for (int i = 0; i < 50; i++) {
      limit = gradient.update(ms(10), limit, false);
    }
    assertTrue(limit > 40, "flat latency grows the limit: " + limit);
    int grown = limit;
    for (int i = 0; i < 30; i++) {
      limit = gradient.update(ms(60), limit, false);
    }
    assertTrue(limit < grown / 2, "sixfold latency shrinks it: " + grown + " -> " + limit);
  }

  @Test
  void vegasShrinksOnQueueingAndOnDrops() {
    LimitAlgorithm.Vegas vegas = new LimitAlgorithm.Vegas(3, 100, 20, 1_000_000);
    vegas.update(ms(10), 20, false); // the no-load latency
    assertEquals(26, vegas.update(ms(10), 20, false), "no queue: grows by beta");
    assertEquals(25, vegas.update(ms(20), 26, false), "half the time queueing: shrinks");
    assertEquals(24, vegas.update(ms(10), 25, true), "a drop shrinks");
    LimitAlgorithm.Vegas floor = new LimitAlgorithm.Vegas(3, 100, 4, 1_000_000);
    floor.update(ms(10), 4, false);
    for (int i = 0; i < 5; i++) {
      floor.update(ms(10), 4, true);
    }
    assertEquals(3, floor.update(ms(10), 4, true), "never below minConcurrent");
  }

  private static void assertSameTrajectory(Limit netflix, LimitAlgorithm brace) {
    List<Integer> expected = new ArrayList<>();
    List<Integer> actual = new ArrayList<>();
    Random random = new Random(17);
    int limit = INITIAL;
    for (int i = 0; i < 1200; i++) {
      long rtt = rttAt(i, random);
      int inFlight = i >= 1000 && i < 1100 ? Math.max(1, limit / 4) : limit;
      boolean drop = i >= 500 && i < 600 && i % 7 == 0;
      netflix.onSample(0, rtt, inFlight, drop);
      limit = brace.update(rtt, inFlight, drop);
      expected.add(netflix.getLimit());
      actual.add(limit);
    }
    assertEquals(expected, actual);
    assertTrue(expected.stream().distinct().count() > 10, "the samples move the limit: " + expected);
  }

  /** Healthy around 10 ms, then latency climbs to 50 ms, then healthy again. */
  private static long rttAt(int i, Random random) {
    double base = i < 300 ? 10 : i < 600 ? 10 + (i - 300) * 40.0 / 300 : 10;
    return (long) ((base + random.nextDouble()) * 1_000_000);
  }

  private static long ms(long millis) {
    return millis * 1_000_000;
  }
}
