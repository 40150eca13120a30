package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import dev.brace.reliability.Budget;
import dev.brace.reliability.Report;
import dev.brace.reliability.SteppedClock;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.config.RateLimitConfig;
import java.time.Clock;
import java.time.Duration;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck explores interleavings of callers taking tokens from one real {@link
 * TokenBucketRateLimiter} (burst 4) and checks every result against {@link Model}, an ideal bucket:
 * exactly {@code burst} callers are admitted, however their compare-and-set loops interleave, so no
 * token is admitted twice and none is lost.
 *
 * <p>The clock stands still here. With an operation that moves it, Lincheck shows two behaviours
 * that no sequential order explains, both on the safe side: a caller can be refused against a
 * clock reading taken before another thread took a token that arrived after it, and {@code
 * availablePermits()} reads the bucket and the clock one after the other. Time-based properties
 * are therefore checked by {@code dev.brace.reliability.RateLimiterStressTest}, whose clock moves
 * only between phases.
 */
// Model checking is CPU-bound work of a fixed size, not a wait: at a load of 30 on two cores it
// takes minutes, past the build's two-minute default, which is meant to catch hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class RateLimiterLincheckTest {
  static final long INTERVAL_NANOS = 10_000_000L;
  static final int BURST = 4;

  /** The operations on the real limiter. */
  public static class Operations {
    private final SteppedClock clock = new SteppedClock(1_000_000_000L);
    private final TokenBucketRateLimiter limiter =
        new TokenBucketRateLimiter(
            RateLimitConfig.builder("lincheck").permits(1).per(Duration.ofNanos(INTERVAL_NANOS)).burst(BURST).build(),
            clock,
            new EventBus(Clock.systemUTC()));

    /** @return whether a token was admitted ({@code maxWait} 0: refused otherwise) */
    @Operation
    public boolean acquire() {
      try {
        limiter.acquire();
        return true;
      } catch (RateLimitedException refused) {
        return false;
      }
    }


  }

  /** The sequential specification: a bucket of {@code BURST} tokens and no refill. */
  public static class Model {
    private int tokens = BURST;

    public boolean acquire() {
      if (tokens == 0) {
        return false;
      }
      tokens--;
      return true;
    }
  }

  @Test
  void exactlyBurstCallersAreAdmittedHoweverTheyInterleave() {
    Report report = new Report("lincheck-ratelimit");
    int iterations = Budget.pick(6, 30);
    int invocations = Budget.pick(300, 1_000);
    new ModelCheckingOptions()
        .iterations(iterations)
        .invocationsPerIteration(invocations)
        .threads(3)
        .actorsPerThread(3)
        .actorsBefore(2)
        .actorsAfter(1)
        .sequentialSpecification(Model.class)
        .check(Operations.class);
    report.put("strategy", "model-checking").put("scenarios", iterations).put("invocations_per_scenario", invocations)
        .put("invariants", "linearizable-vs-bucket,exactly-burst-admitted").print();
  }
}
