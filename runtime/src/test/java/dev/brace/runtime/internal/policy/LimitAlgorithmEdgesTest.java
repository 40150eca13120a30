package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The algorithms at the edges of their rules, against the library they follow (Netflix
 * concurrency-limits): a limit exactly twice the calls in flight, a long average exactly twice the
 * latest latency, latency that falls after load and rises again; and Vegas forgetting its no-load
 * latency when a dependency got slower for good.
 */
class LimitAlgorithmEdgesTest {
  private static final int MIN = 2;
  private static final int MAX = 120;
  private static final int INITIAL = 20;

  /** One sample: latency in milliseconds, and calls in flight (0: as many as the limit). */
  private record Sample(double rttMillis, int inFlight) {}

  @Test
  void gradient2MovesAsNetflixAtItsBoundariesAndWhenLatencyFallsThenRises() {
    List<Sample> samples = new ArrayList<>();
    // Exactly half the initial limit in flight: the limit is in use, so it moves.
    samples.add(new Sample(19, INITIAL / 2));
    for (int i = 0; i < 8; i++) {
      samples.add(new Sample(19, 0));
    }
    // The tenth sample ends the warm-up with a long average (18 ms) exactly twice this latency.
    samples.add(new Sample(9, 0));
    samples.add(new Sample(40, 0));
    for (int i = 0; i < 60; i++) {
      samples.add(new Sample(50, 0));
    }
    // Latency falls: the long average follows faster, ...
    for (int i = 0; i < 100; i++) {
      samples.add(new Sample(10, 0));
    }
    // ... so a rise is then judged against the lower latency and shrinks the limit.
    for (int i = 0; i < 60; i++) {
      samples.add(new Sample(60, 0));
    }
    Limit netflix = Gradient2Limit.newBuilder().initialLimit(INITIAL).minLimit(MIN).maxConcurrency(MAX).build();
    assertSameTrajectory(netflix, new LimitAlgorithm.Gradient2(MIN, MAX, INITIAL), samples);
  }

  @Test
  void vegasMovesAsNetflixWithExactlyHalfItsLimitInFlight() {
    List<Sample> samples = new ArrayList<>();
    samples.add(new Sample(10, INITIAL));
    // Twice the calls in flight is the limit: in use, so no queue grows it by beta.
    samples.add(new Sample(10, INITIAL / 2));
    samples.add(new Sample(10, 13));
    samples.add(new Sample(30, 0));
    Limit netflix = VegasLimit.newBuilder().initialLimit(INITIAL).maxConcurrency(MAX)
        .probeMultiplier(1_000_000).build();
    List<Integer> limits = assertSameTrajectory(netflix, new LimitAlgorithm.Vegas(1, MAX, INITIAL, 1_000_000), samples);
    assertEquals(26, limits.get(1));
  }

  @Test
  void vegasKeepsItsNoLoadLatencyForAtLeastHalfTheProbeIntervalTimesItsLimit() {
    LimitAlgorithm.Vegas vegas = new LimitAlgorithm.Vegas(1, 100, 10, 30);
    vegas.update(ms(10), 10, false);
    // 30 × 10 × a jitter of at least 0.5: no probe within 150 samples. App-limited ones change nothing.
    for (int i = 0; i < 140; i++) {
      assertEquals(10, vegas.update(ms(40), 1, false));
    }
    assertEquals(9, vegas.update(ms(40), 10, false), "still judged against 10 ms: three quarters queueing shrinks it");
  }

  @Test
  void aVegasProbeForgetsTheNoLoadLatencyButKeepsTheLimit() {
    LimitAlgorithm.Vegas vegas = new LimitAlgorithm.Vegas(1, 100, 10, 1);
    // 1 × 10 × a jitter below 1: at least one probe within these samples, whatever the jitter.
    for (int i = 0; i < 12; i++) {
      assertEquals(10, vegas.update(ms(10), 1, false), "sample " + i);
    }
  }

  @Test
  void vegasLearnsADependencyThatGotSlowerForGood() {
    LimitAlgorithm.Vegas vegas = new LimitAlgorithm.Vegas(1, 100, 10, 1);
    int limit = vegas.update(ms(10), 10, false);
    for (int i = 0; i < 400; i++) {
      limit = vegas.update(ms(30), limit, false);
    }
    // Judged against 10 ms for ever, two thirds of every call would look like queueing and keep
    // the limit under 10; probes take 30 ms as the no-load latency, and the busy limit grows.
    assertEquals(100, limit);
  }

  private static List<Integer> assertSameTrajectory(Limit netflix, LimitAlgorithm brace, List<Sample> samples) {
    List<Integer> expected = new ArrayList<>();
    List<Integer> actual = new ArrayList<>();
    int limit = INITIAL;
    for (Sample sample : samples) {
      long rtt = (long) (sample.rttMillis() * 1_000_000);
      int inFlight = sample.inFlight() == 0 ? limit : sample.inFlight();
      netflix.onSample(0, rtt, inFlight, false);
      limit = brace.update(rtt, inFlight, false);
      expected.add(netflix.getLimit());
      actual.add(limit);
    }
    assertEquals(expected, actual);
    return actual;
  }

  private static long ms(long millis) {
    return millis * 1_000_000;
  }
}
