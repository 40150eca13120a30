package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RetryAfterHint;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The retry schedule: every jitter kind stays within its bounds for any delay, multiplier, cap
 * and attempt, a retry-after hint only ever lengthens the wait, and FULL, EQUAL and DECORRELATED
 * are uniform over their ranges (Kolmogorov–Smirnov from a fixed seed, so the check is exact and
 * repeatable rather than a coin that fails one build in a thousand).
 */
class RetryScheduleProperties {

  /** The KS statistic's critical value at α = 0.001 is 1.95 / √n; 20,000 draws give 0.0138. */
  private static final int DRAWS = 20_000;
  private static final double KS_CRITICAL = 1.95 / Math.sqrt(DRAWS);

  private static RetryPolicy policy(long delayNanos, long maxDelayNanos, double multiplier, Retry.Jitter jitter, long seed) {
    RetryConfig config = RetryConfig.builder("r")
        .maxAttempts(100)
        .delay(Duration.ofNanos(delayNanos))
        .maxDelay(Duration.ofNanos(maxDelayNanos))
        .multiplier(multiplier)
        .jitter(jitter)
        .maxRetryAfter(Duration.ofHours(1))
        .build();
    return new RetryPolicy(config, "call", new ManualTimeSource(), new RecordedEvents().bus(), null,
        new SplittableRandom(seed));
  }

  @Property
  void everyJitterStaysWithinItsBounds(
      @ForAll @LongRange(min = 1, max = 5_000_000_000L) long delayNanos,
      @ForAll @LongRange(min = 0, max = 60_000_000_000L) long extraCapNanos,
      @ForAll @DoubleRange(min = 1.0, max = 4.0) double multiplier,
      @ForAll Retry.Jitter jitter,
      @ForAll @IntRange(min = 1, max = 40) int attempts,
      @ForAll long seed) {
    long maxDelay = delayNanos + extraCapNanos;
    RetryPolicy policy = policy(delayNanos, maxDelay, multiplier, jitter, seed);
    RetryRun run = policy.continuing(null);
    long previous = delayNanos;
    for (int n = 1; n <= attempts; n++) {
      double grown = delayNanos * Math.pow(multiplier, n - 1);
      long cap = grown >= maxDelay ? maxDelay : (long) grown;
      assertEquals(cap, policy.cap(n), "cap of attempt " + n);
      assertTrue(cap >= delayNanos && cap <= maxDelay, "cap within [delay, maxDelay]");
      long delay = policy.backoff(run, n, null);
      switch (jitter) {
        case NONE:
          assertEquals(cap, delay);
          break;
        case FULL:
          assertTrue(delay >= 0 && delay <= cap, "FULL in [0, " + cap + "]: " + delay);
          break;
        case EQUAL:
          assertTrue(delay >= cap / 2 && delay <= cap, "EQUAL in [cap/2, cap]: " + delay);
          break;
        case DECORRELATED:
          long upper = Math.min(maxDelay, Math.max(delayNanos, 3 * previous));
          assertTrue(delay >= Math.min(delayNanos, maxDelay) && delay <= upper,
              "DECORRELATED in [delay, min(maxDelay, 3 · previous)]: " + delay + " after " + previous);
          break;
        default:
          throw new IllegalStateException(jitter.toString());
      }
      previous = delay;
    }
  }

  @Property
  void aRetryAfterHintLengthensTheWaitAndNeverShortensIt(
      @ForAll Retry.Jitter jitter,
      @ForAll @LongRange(min = 0, max = 10_000_000_000L) long hintNanos,
      @ForAll @IntRange(min = 1, max = 10) int attempt,
      @ForAll long seed) {
    long delay = 100_000_000L;
    RetryPolicy hinted = policy(delay, 2_000_000_000L, 2.0, jitter, seed);
    RetryPolicy plain = policy(delay, 2_000_000_000L, 2.0, jitter, seed);
    long withHint = hinted.backoff(hinted.continuing(null), attempt, new Hinted(Duration.ofNanos(hintNanos)));
    long without = plain.backoff(plain.continuing(null), attempt, null);
    long margin = hintNanos + hintNanos / 20 + 1_000_000L;
    assertEquals(Math.max(without, margin), withHint, "the larger of the backoff and the hint with its margin");
  }

  @Example
  void fullJitterIsUniformOverZeroToTheCap() {
    long cap = 1_000_000_000L;
    RetryPolicy policy = policy(cap, cap, 1.0, Retry.Jitter.FULL, 42);
    assertUniform(n -> policy.backoff(policy.continuing(null), 1, null), 0, cap);
  }

  @Example
  void equalJitterIsUniformOverHalfTheCapToTheCap() {
    long cap = 1_000_000_000L;
    RetryPolicy policy = policy(cap, cap, 1.0, Retry.Jitter.EQUAL, 43);
    assertUniform(n -> policy.backoff(policy.continuing(null), 1, null), cap / 2, cap);
  }

  /**
   * Each decorrelated draw is uniform on [delay, 3 · previous]: normalised by its own range, every
   * draw is one U(0, 1), whatever the previous wait was (chosen here from a seeded generator, below
   * the cap so that the cap's point mass does not enter).
   */
  @Example
  void decorrelatedJitterIsUniformOverDelayToThreeTimesThePrevious() {
    long base = 10_000_000L;
    RetryPolicy policy = policy(base, 1_000 * base, 1.0, Retry.Jitter.DECORRELATED, 44);
    RetryRun run = policy.continuing(null);
    SplittableRandom previousWaits = new SplittableRandom(45);
    double[] positions = new double[DRAWS];
    for (int i = 0; i < DRAWS; i++) {
      long previous = previousWaits.nextLong(base, 300 * base);
      run.previousDelayNanos(previous);
      long delay = policy.backoff(run, 1 + i % 5, null);
      assertTrue(delay >= base && delay <= 3 * previous, delay + " outside [delay, 3 · " + previous + "]");
      positions[i] = (double) (delay - base) / (3 * previous - base);
    }
    assertUniformPositions(positions);
  }

  /**
   * Decorrelated jitter draws each wait from the previous one, so the waits grow past three times
   * {@code delay} (where a schedule that forgot the previous wait would stay), each at most three
   * times the one before.
   */
  @Example
  void decorrelatedWaitsGrowFromThePreviousWait() {
    long base = 10_000_000L;
    RetryPolicy policy = policy(base, 10_000 * base, 1.0, Retry.Jitter.DECORRELATED, 46);
    RetryRun run = policy.continuing(null);
    long previous = base;
    long longest = 0;
    for (int n = 1; n <= 30; n++) {
      long delay = policy.backoff(run, n, null);
      assertTrue(delay >= base && delay <= 3 * previous, delay + " outside [delay, 3 · " + previous + "]");
      longest = Math.max(longest, delay);
      previous = delay;
    }
    assertTrue(longest > 3 * base, "30 waits never left [delay, 3 · delay]: longest " + longest);
  }

  /**
   * A cap beyond what nanoseconds can count (here 1,000 years) is as good as none: the wait is
   * drawn from zero to the longest a {@code long} holds, not cut short or refused.
   */
  @Example
  void fullJitterUnderACapBeyondALongDrawsOverTheWholeRange() {
    RetryConfig config = RetryConfig.builder("r")
        .maxAttempts(200)
        .delay(Duration.ofSeconds(1))
        .maxDelay(Duration.ofDays(365_000))
        .multiplier(2.0)
        .jitter(Retry.Jitter.FULL)
        .build();
    RetryPolicy policy = new RetryPolicy(config, "call", new ManualTimeSource(), new RecordedEvents().bus(), null,
        new SplittableRandom(47));
    RetryRun run = policy.continuing(null);
    assertEquals(Long.MAX_VALUE, policy.cap(100));
    long longest = 0;
    for (int i = 0; i < 100; i++) {
      long delay = policy.backoff(run, 100, null);
      assertTrue(delay >= 0, "a wait within [0, the cap]: " + delay);
      longest = Math.max(longest, delay);
    }
    assertTrue(longest > Long.MAX_VALUE / 2, "100 draws over [0, 2^63) all below 2^62: " + longest);
  }

  /**
   * A wait that reaches {@code maxDelay} is {@code maxDelay} to the nanosecond, even where a double
   * cannot hold it (here 2^53 + 1 ns, about 104 days).
   */
  @Example
  void theCapIsMaxDelayToTheNanosecond() {
    long maxDelay = (1L << 53) + 1;
    RetryPolicy policy = policy(maxDelay, maxDelay, 1.0, Retry.Jitter.NONE, 48);
    assertEquals(maxDelay, policy.cap(1));
    assertEquals(maxDelay, policy.backoff(policy.continuing(null), 1, null));
  }

  private static void assertUniform(LongUnaryOperator draw, long low, long high) {
    double[] positions = new double[DRAWS];
    for (int i = 0; i < DRAWS; i++) {
      long value = draw.applyAsLong(i);
      assertTrue(value >= low && value <= high, value + " outside [" + low + ", " + high + "]");
      positions[i] = (double) (value - low) / (high - low);
    }
    assertUniformPositions(positions);
  }

  /** Kolmogorov–Smirnov against U(0, 1), and the mean within 1% of ½. */
  private static void assertUniformPositions(double[] positions) {
    double[] sorted = positions.clone();
    Arrays.sort(sorted);
    double worst = 0;
    for (int i = 0; i < sorted.length; i++) {
      worst = Math.max(worst, Math.max((i + 1.0) / sorted.length - sorted[i], sorted[i] - (double) i / sorted.length));
    }
    assertTrue(worst < KS_CRITICAL, "KS distance " + worst + " ≥ " + KS_CRITICAL);
    double mean = Arrays.stream(positions).average().orElseThrow();
    assertEquals(0.5, mean, 0.01, "mean position");
  }

  private static final class Hinted extends IOException implements RetryAfterHint {
    private final Duration hint;

    Hinted(Duration hint) {
      super("slow down");
      this.hint = hint;
    }

    @Override
    public Optional<Duration> retryAfter() {
      return Optional.of(hint);
    }
  }
}
