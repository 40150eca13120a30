package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterTry;

/**
 * The token bucket against a reference model, driven by random sequences of operations on a
 * manual clock. The model is stated as a bucket level (credit in nanoseconds, at most the
 * capacity, negative while tokens are owed to waiting callers) rather than the limiter's single
 * "full again at" instant, so a slip in either formulation shows as a disagreement.
 */
class TokenBucketProperties {

  enum Kind { TAKE, ACQUIRE, INTERRUPTED_ACQUIRE, CANCEL, ADVANCE, WAIT_OUT }

  /** One operation; {@code amount} is a fraction of the interval in thousandths, or an index. */
  record Op(Kind kind, int amount) {}

  @AfterTry
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Provide
  Arbitrary<List<Op>> withoutCancel() {
    return op(Arbitraries.of(Kind.TAKE, Kind.ACQUIRE, Kind.INTERRUPTED_ACQUIRE, Kind.ADVANCE, Kind.WAIT_OUT))
        .list().ofMaxSize(60);
  }

  @Provide
  Arbitrary<List<Op>> anyInterleaving() {
    return op(Arbitraries.of(Kind.values())).list().ofMaxSize(60);
  }

  private static Arbitrary<Op> op(Arbitrary<Kind> kinds) {
    return kinds.flatMap(kind -> Arbitraries.integers().between(0, 3000).map(amount -> new Op(kind, amount)));
  }

  /** Every decision (admit now, admit after a wait of exactly n ns, refuse) is the model's. */
  @Property
  void everyDecisionIsTheReferenceBucketsDecision(
      @ForAll @IntRange(min = 1, max = 5) int permits,
      @ForAll @LongRange(min = 1, max = 2_000_000_000L) long perNanos,
      @ForAll @IntRange(min = 0, max = 5) int burst,
      @ForAll @IntRange(min = 0, max = 4000) int maxWaitThousandths,
      @ForAll("withoutCancel") List<Op> ops) {
    ManualTimeSource clock = new ManualTimeSource();
    TokenBucketRateLimiter limiter = limiter(clock, permits, perNanos, burst, maxWaitThousandths);
    BucketModel model = new BucketModel(permits, perNanos, burst, maxWaitThousandths, clock.nanoTime());

    for (Op op : ops) {
      long now = clock.nanoTime();
      switch (op.kind()) {
        case TAKE: {
          long expected = model.take(now);
          if (expected == BucketModel.REFUSED) {
            refused(limiter::reserveToken, model, now);
          } else {
            assertEquals(expected, limiter.waitFor(limiter.reserveToken()), "wait for a reserved token");
          }
          break;
        }
        case ACQUIRE: {
          long expected = model.take(now);
          if (expected == BucketModel.REFUSED) {
            refused(limiter::acquire, model, now);
          } else {
            limiter.acquire();
            assertEquals(now + expected, clock.nanoTime(), "a blocking caller sleeps exactly its wait");
          }
          break;
        }
        case INTERRUPTED_ACQUIRE: {
          long expected = model.take(now);
          Thread.currentThread().interrupt();
          if (expected == BucketModel.REFUSED) {
            refused(limiter::acquire, model, now);
          } else if (expected > 0) {
            RateLimitedException refused = org.junit.jupiter.api.Assertions.assertThrows(
                RateLimitedException.class, limiter::acquire, "an interrupted wait is refused");
            assertInstanceOf(InterruptedException.class, refused.getCause());
            model.giveBackLatest(now);
          } else {
            // A token that is there is taken without waiting, so the interrupt is not looked at.
            limiter.acquire();
          }
          assertTrue(Thread.interrupted(), "the interrupt flag is set again");
          assertEquals(now, clock.nanoTime());
          break;
        }
        case ADVANCE:
          clock.advance(Duration.ofNanos(model.interval * op.amount() / 1000));
          break;
        case WAIT_OUT:
          clock.advance(Duration.ofNanos(Math.max(0, -model.levelAt(now))));
          break;
        default:
          throw new IllegalStateException(op.toString());
      }
      assertEquals(model.availableAt(clock.nanoTime()), limiter.availablePermits(), "whole tokens available");
      assertEquals(model.levelAt(clock.nanoTime()) < 0, limiter.hasWaiters(), "tokens owed to waiters");
    }
  }

  /**
   * Any interleaving of take, wait, cancel and advance: the tokens that stay in use (every
   * reservation not cancelled) never exceed burst + rate · span over any span of their instants,
   * and no token arrives later than {@code maxWait} after it was asked for.
   */
  @Property
  void tokensInUseNeverExceedBurstPlusRateTimesSpan(
      @ForAll @IntRange(min = 1, max = 5) int permits,
      @ForAll @LongRange(min = 1, max = 2_000_000_000L) long perNanos,
      @ForAll @IntRange(min = 0, max = 5) int burst,
      @ForAll @IntRange(min = 0, max = 4000) int maxWaitThousandths,
      @ForAll("anyInterleaving") List<Op> ops) {
    ManualTimeSource clock = new ManualTimeSource();
    TokenBucketRateLimiter limiter = limiter(clock, permits, perNanos, burst, maxWaitThousandths);
    long interval = limiter.config().per().toNanos() / permits
        + (limiter.config().per().toNanos() % permits == 0 ? 0 : 1);
    long maxWait = interval * maxWaitThousandths / 1000;
    int capacity = limiter.config().burst();
    List<long[]> reservations = new ArrayList<>(); // {reservation, token instant, cancelled}
    List<Long> used = new ArrayList<>();

    for (Op op : ops) {
      long now = clock.nanoTime();
      switch (op.kind()) {
        case TAKE:
        case ACQUIRE:
          try {
            long reservation = limiter.reserveToken();
            long at = now + limiter.waitFor(reservation);
            assertTrue(at - now <= maxWait, "a token arrives within maxWait");
            reservations.add(new long[] {reservation, at, 0});
          } catch (RateLimitedException refused) {
            // Refusals are judged by the exact model above; here only admissions matter.
          }
          break;
        case INTERRUPTED_ACQUIRE:
          Thread.currentThread().interrupt();
          try {
            limiter.acquire();
            reservations.add(new long[] {0, now, 0});
          } catch (RateLimitedException refused) {
            // Given back, or never taken.
          }
          Thread.interrupted();
          break;
        case CANCEL:
          if (!reservations.isEmpty()) {
            long[] chosen = reservations.get(op.amount() % reservations.size());
            if (chosen[2] == 0 && chosen[0] != 0 && chosen[1] > now) {
              limiter.cancelReservation(chosen[0]);
              chosen[2] = 1;
            }
          }
          break;
        case ADVANCE:
          clock.advance(Duration.ofNanos(interval * op.amount() / 1000));
          break;
        case WAIT_OUT:
          long latest = now;
          for (long[] r : reservations) {
            latest = Math.max(latest, r[1]);
          }
          clock.advance(Duration.ofNanos(latest - now));
          break;
        default:
          throw new IllegalStateException(op.toString());
      }
    }
    for (long[] r : reservations) {
      if (r[2] == 0) {
        used.add(r[1]);
      }
    }
    used.sort(null);
    for (int a = 0; a < used.size(); a++) {
      for (int b = a; b < used.size(); b++) {
        long tokens = b - a + 1;
        long span = used.get(b) - used.get(a);
        assertTrue((tokens - capacity) * interval <= span,
            tokens + " tokens in " + span + " ns: more than burst " + capacity + " + span / " + interval);
      }
    }
  }

  private static void refused(org.junit.jupiter.api.function.Executable call, BucketModel model, long now) {
    RateLimitedException refused = org.junit.jupiter.api.Assertions.assertThrows(RateLimitedException.class, call);
    assertEquals(Duration.ofNanos(model.waitAt(now)), refused.retryAfter().orElseThrow(), "retry-after");
  }

  static TokenBucketRateLimiter limiter(
      ManualTimeSource clock, int permits, long perNanos, int burst, int maxWaitThousandths) {
    long interval = perNanos / permits + (perNanos % permits == 0 ? 0 : 1);
    return new TokenBucketRateLimiter(
        RateLimitConfigs.config(permits, Duration.ofNanos(perNanos), burst,
            Duration.ofNanos(interval * maxWaitThousandths / 1000)),
        clock, new RecordedEvents().bus());
  }

  /** The reference: a bucket level in nanoseconds of credit, refilled by elapsed time up to capacity. */
  static final class BucketModel {
    static final long REFUSED = Long.MIN_VALUE;
    final long interval;
    final long capacity;
    final long maxWait;
    long level;
    long at;

    BucketModel(int permits, long perNanos, int burst, int maxWaitThousandths, long start) {
      this.interval = perNanos / permits + (perNanos % permits == 0 ? 0 : 1);
      this.capacity = interval * (burst == 0 ? permits : burst);
      this.maxWait = interval * maxWaitThousandths / 1000;
      this.level = capacity;
      this.at = start;
    }

    long levelAt(long now) {
      return Math.min(capacity, level + (now - at));
    }

    /** @return the wait in ns until one more token is there (0 or less: at once) */
    long waitAt(long now) {
      return interval - levelAt(now);
    }

    /** @return the wait before the taken token arrives (0 when it is there), or {@link #REFUSED} */
    long take(long now) {
      level = levelAt(now);
      at = now;
      long wait = interval - level;
      if (wait > maxWait) {
        return REFUSED;
      }
      level -= interval;
      return Math.max(0, wait);
    }

    void giveBackLatest(long now) {
      level = Math.min(capacity, levelAt(now) + interval);
      at = now;
    }

    long availableAt(long now) {
      long level = levelAt(now);
      return level <= 0 ? 0 : level / interval;
    }
  }
}
