package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.internal.event.EventBus;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The local breaker against a plain state machine with generations, in count mode and in both
 * rate modes (last N calls, time buckets), without and with slow calls judged, driven by random
 * calls that take time (fast, slow, and exactly at the {@code slowCall} boundary), held tickets
 * completed late, released probes, resets and clock moves. State, refusals and their retry-after
 * agree after every operation.
 *
 * <p>The rule the model holds for slow calls (docs/guide/annotations.md, "Slow calls in the breaker"): an
 * outcome is slow when it took strictly longer than {@code slowCall}. While CLOSED every counted
 * outcome goes into a slow window of the rate window's shape (last {@code windowCalls} outcomes, or
 * the time buckets), and the circuit opens when that window holds at least {@code minimumCalls}
 * outcomes and slow ones make at least {@code slowCallRate} of all of them, failures included.
 * Failures are judged apart, exactly as without {@code slowCall} (consecutive count, or the failure
 * rate over the same window); so a slow failure counts once in each judgement, never twice in one.
 * A HALF_OPEN probe that is slow (failed or not) opens the circuit again.
 */
class CircuitBreakerProperties {

  private static final long RESET_NANOS = Duration.ofSeconds(10).toNanos();
  private static final Duration WINDOW = Duration.ofSeconds(10);
  private static final int BUCKETS = 5;
  private static final long SLOW_NANOS = Duration.ofSeconds(1).toNanos();
  /**
   * How long a call takes, by {@code Op.amount % 6}: at once, just under, exactly at and just over
   * {@code slowCall}, well over it, and a tenth of it per unit of {@code amount} (so up to 15 s,
   * across buckets of the time window).
   */
  private static final int DURATIONS = 6;

  enum Kind { SUCCEED, FAIL, HOLD, COMPLETE_HELD_OK, COMPLETE_HELD_FAILED, RELEASE_HELD, ADVANCE, RESET }

  /**
   * One operation; {@code amount} is a time step in tenths of a second, which held ticket, or (for
   * a completed call) how long it took ({@link #elapsedNanos}).
   */
  record Op(Kind kind, int amount) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Kind> kinds = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.just(Kind.SUCCEED)),
        net.jqwik.api.Tuple.of(4, Arbitraries.just(Kind.FAIL)),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.HOLD)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.COMPLETE_HELD_OK)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.COMPLETE_HELD_FAILED)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.RELEASE_HELD)),
        net.jqwik.api.Tuple.of(3, Arbitraries.just(Kind.ADVANCE)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.RESET)));
    return Combinators.combine(kinds, Arbitraries.integers().between(0, 150)).as(Op::new)
        .list().ofMaxSize(80);
  }

  /** @return how long a call of this operation takes, on either side of {@code slowCall} and at it */
  static long elapsedNanos(Op op) {
    switch (op.amount() % DURATIONS) {
      case 0:
        return 0;
      case 1:
        return SLOW_NANOS - 1;
      case 2:
        return SLOW_NANOS;
      case 3:
        return SLOW_NANOS + 1;
      case 4:
        return 3 * SLOW_NANOS;
      default:
        return SLOW_NANOS / 10 * op.amount();
    }
  }

  /**
   * A rate that opens the circuit: often a simple fraction, which a window of a few calls reaches
   * exactly (so "at least the rate" is told from "above it"), otherwise any number in [0.1, 1].
   */
  @Provide
  Arbitrary<Double> rates() {
    return Arbitraries.oneOf(
        Arbitraries.of(0.25, 1 / 3.0, 0.5, 2 / 3.0, 0.75, 1.0),
        Arbitraries.doubles().between(0.1, 1.0));
  }

  @Property
  void countModeAgreesWithTheModel(
      @ForAll @IntRange(min = 1, max = 4) int failureThreshold,
      @ForAll @IntRange(min = 1, max = 3) int successThreshold,
      @ForAll("ops") List<Op> ops) {
    run(CircuitBreakerConfig.builder("cb")
            .failureThreshold(failureThreshold)
            .successThreshold(successThreshold)
            .resetTimeout(Duration.ofNanos(RESET_NANOS)).build(),
        ops);
  }

  @Property
  void lastCallsRateModeAgreesWithTheModel(
      @ForAll("rates") double failureRate,
      @ForAll @IntRange(min = 1, max = 4) int minimumCalls,
      @ForAll @IntRange(min = 0, max = 3) int extraWindowCalls,
      @ForAll @IntRange(min = 1, max = 3) int successThreshold,
      @ForAll("ops") List<Op> ops) {
    run(CircuitBreakerConfig.builder("cb")
            .failureRate(failureRate)
            .minimumCalls(minimumCalls)
            .windowCalls(minimumCalls + extraWindowCalls)
            .successThreshold(successThreshold)
            .resetTimeout(Duration.ofNanos(RESET_NANOS)).build(),
        ops);
  }

  @Property
  void timeWindowRateModeAgreesWithTheModel(
      @ForAll("rates") double failureRate,
      @ForAll @IntRange(min = 1, max = 4) int minimumCalls,
      @ForAll @IntRange(min = 1, max = 3) int successThreshold,
      @ForAll("ops") List<Op> ops) {
    run(CircuitBreakerConfig.builder("cb")
            .failureRate(failureRate)
            .minimumCalls(minimumCalls)
            .window(WINDOW)
            .windowBuckets(BUCKETS)
            .successThreshold(successThreshold)
            .resetTimeout(Duration.ofNanos(RESET_NANOS)).build(),
        ops);
  }

  @Property
  void countModeWithSlowCallsAgreesWithTheModel(
      @ForAll @IntRange(min = 1, max = 4) int failureThreshold,
      @ForAll @IntRange(min = 1, max = 3) int successThreshold,
      @ForAll("rates") double slowCallRate,
      @ForAll @IntRange(min = 1, max = 4) int minimumCalls,
      @ForAll @IntRange(min = -1, max = 3) int extraWindowCalls,
      @ForAll("ops") List<Op> ops) {
    run(slowCalls(slowCallRate, minimumCalls, extraWindowCalls)
            .failureThreshold(failureThreshold)
            .successThreshold(successThreshold).build(),
        ops);
  }

  @Property
  void lastCallsRateModeWithSlowCallsAgreesWithTheModel(
      @ForAll("rates") double failureRate,
      @ForAll("rates") double slowCallRate,
      @ForAll @IntRange(min = 1, max = 4) int minimumCalls,
      @ForAll @IntRange(min = 0, max = 3) int extraWindowCalls,
      @ForAll @IntRange(min = 1, max = 3) int successThreshold,
      @ForAll("ops") List<Op> ops) {
    run(slowCalls(slowCallRate, minimumCalls, extraWindowCalls)
            .failureRate(failureRate)
            .successThreshold(successThreshold).build(),
        ops);
  }

  @Property
  void timeWindowRateModeWithSlowCallsAgreesWithTheModel(
      @ForAll("rates") double failureRate,
      @ForAll("rates") double slowCallRate,
      @ForAll @IntRange(min = 1, max = 4) int minimumCalls,
      @ForAll @IntRange(min = 1, max = 3) int successThreshold,
      @ForAll("ops") List<Op> ops) {
    run(slowCalls(slowCallRate, minimumCalls, -1)
            .failureRate(failureRate)
            .successThreshold(successThreshold).build(),
        ops);
  }

  /** A breaker judging slow calls; {@code extraWindowCalls} of -1 means the time window, else last-N calls. */
  private static CircuitBreakerConfig.Builder slowCalls(double slowCallRate, int minimumCalls, int extraWindowCalls) {
    CircuitBreakerConfig.Builder builder = CircuitBreakerConfig.builder("cb")
        .slowCall(Duration.ofNanos(SLOW_NANOS))
        .slowCallRate(slowCallRate)
        .minimumCalls(minimumCalls)
        .resetTimeout(Duration.ofNanos(RESET_NANOS));
    return extraWindowCalls < 0
        ? builder.window(WINDOW).windowBuckets(BUCKETS)
        : builder.windowCalls(minimumCalls + extraWindowCalls);
  }

  private static void run(CircuitBreakerConfig config, List<Op> ops) {
    ManualTimeSource clock = new ManualTimeSource();
    DefaultCircuitBreaker breaker = new DefaultCircuitBreaker(config, clock, new EventBus(Clock.systemUTC()));
    BreakerModel model = new BreakerModel(config, clock.nanoTime());
    List<Object> held = new ArrayList<>();
    List<Integer> heldGenerations = new ArrayList<>();
    List<Long> heldSince = new ArrayList<>();
    IOException failure = new IOException("down");

    for (Op op : ops) {
      long now = clock.nanoTime();
      switch (op.kind()) {
        case SUCCEED:
        case FAIL:
        case HOLD: {
          Optional<Long> refusal = model.refusal(now);
          if (refusal != null) {
            CircuitOpenException refused = assertThrows(CircuitOpenException.class, breaker::acquire);
            assertEquals(refusal.map(Duration::ofNanos), refused.retryAfter(), "retry-after of a refusal");
            break;
          }
          Object ticket = breaker.acquire();
          int generation = model.admit(now);
          if (op.kind() == Kind.HOLD) {
            held.add(ticket);
            heldGenerations.add(generation);
            heldSince.add(now);
          } else {
            boolean failed = op.kind() == Kind.FAIL;
            long elapsed = elapsedNanos(op);
            clock.advance(Duration.ofNanos(elapsed));
            complete(breaker, model, ticket, generation, failed, elapsed, clock.nanoTime(), failure);
          }
          break;
        }
        case COMPLETE_HELD_OK:
        case COMPLETE_HELD_FAILED:
        case RELEASE_HELD: {
          if (held.isEmpty()) {
            break;
          }
          int index = op.amount() % held.size();
          Object ticket = held.remove(index);
          int generation = heldGenerations.remove(index);
          long since = heldSince.remove(index);
          if (op.kind() == Kind.RELEASE_HELD) {
            breaker.release(ticket);
            model.release(generation);
          } else {
            boolean failed = op.kind() == Kind.COMPLETE_HELD_FAILED;
            complete(breaker, model, ticket, generation, failed, now - since, now, failure);
          }
          break;
        }
        case ADVANCE:
          clock.advance(Duration.ofMillis(100L * op.amount()));
          break;
        case RESET:
          breaker.reset();
          model.reset(now);
          break;
        default:
          throw new IllegalStateException(op.toString());
      }
      long after = clock.nanoTime();
      assertEquals(model.state(), breaker.state(), "state after " + op);
      assertEquals(model.state() == CircuitState.OPEN ? Optional.of(Duration.ofNanos(Math.max(0, model.probeAt - after))) : Optional.empty(),
          breaker.retryAfter(), "retryAfter()");
    }
  }

  /** Completes a call that took {@code elapsed}: the breaker's classifier and the model each judge whether it was slow. */
  private static void complete(
      DefaultCircuitBreaker breaker, BreakerModel model, Object ticket, int generation,
      boolean failed, long elapsed, long now, IOException failure) {
    boolean slow = breaker.classifier().isSlow(elapsed);
    assertEquals(model.isSlow(elapsed), slow, "slow after " + elapsed + " ns");
    breaker.record(ticket, failed, slow, failed ? failure : null);
    model.record(generation, failed, slow, now);
  }

  /** The breaker as a plain state machine; every new state is a new generation. */
  static final class BreakerModel {
    private final CircuitBreakerConfig config;
    private final long bucketNanos;
    CircuitState state = CircuitState.CLOSED;
    int generation;
    int consecutiveFailures;
    /** Outcomes of this CLOSED generation: {epoch, failed, slow}. */
    final List<long[]> outcomes = new ArrayList<>();
    long origin;
    long probeAt;
    int successes;
    boolean probing;

    BreakerModel(CircuitBreakerConfig config, long now) {
      this.config = config;
      this.bucketNanos = config.window().toNanos() / config.windowBuckets();
      this.origin = now;
    }

    CircuitState state() {
      return state;
    }

    /** @return null when admitted, else the retry-after a refusal carries (empty while probing) */
    Optional<Long> refusal(long now) {
      if (state == CircuitState.OPEN && now - probeAt < 0) {
        return Optional.of(probeAt - now);
      }
      if (state == CircuitState.HALF_OPEN && probing) {
        return Optional.empty();
      }
      return null;
    }

    /** @return the generation the admitted call belongs to */
    int admit(long now) {
      if (state == CircuitState.OPEN) {
        state = CircuitState.HALF_OPEN;
        successes = 0;
        probing = true;
        generation++;
      } else if (state == CircuitState.HALF_OPEN) {
        probing = true;
        generation++;
      }
      return generation;
    }

    /** Slow is strictly longer than {@code slowCall}; never, when latency is not judged. */
    boolean isSlow(long elapsedNanos) {
      return config.judgesSlowCalls() && elapsedNanos > config.slowCall().toNanos();
    }

    void record(int admittedIn, boolean failed, boolean slow, long now) {
      if (admittedIn != generation) {
        return;
      }
      if (state == CircuitState.CLOSED) {
        boolean trips;
        if (config.windowed()) {
          outcomes.add(new long[] {(now - origin) / bucketNanos, failed ? 1 : 0, slow ? 1 : 0});
        }
        if (config.rateMode()) {
          trips = tooMany(1, config.failureRate(), now);
        } else if (!failed) {
          consecutiveFailures = 0;
          trips = false;
        } else {
          trips = ++consecutiveFailures >= config.failureThreshold();
        }
        if (trips || (config.judgesSlowCalls() && tooMany(2, config.slowCallRate(), now))) {
          open(now);
        }
      } else if (failed || slow) {
        open(now);
      } else if (++successes < config.successThreshold()) {
        probing = false;
        generation++;
      } else {
        close(now);
      }
    }

    /**
     * @param column 1 for failures, 2 for slow outcomes
     * @return whether the window (last N outcomes, or the buckets not yet expired) holds at least
     *     {@code minimumCalls} outcomes, of which at least {@code rate} are marked in {@code column}
     */
    private boolean tooMany(int column, double rate, long now) {
      long epoch = (now - origin) / bucketNanos;
      List<long[]> counted = new ArrayList<>();
      if (config.windowCalls() > 0) {
        counted.addAll(outcomes.subList(Math.max(0, outcomes.size() - config.windowCalls()), outcomes.size()));
      } else {
        for (long[] outcome : outcomes) {
          if (outcome[0] > epoch - config.windowBuckets()) {
            counted.add(outcome);
          }
        }
      }
      long marked = counted.stream().filter(o -> o[column] == 1).count();
      return counted.size() >= config.minimumCalls() && (double) marked / counted.size() >= rate;
    }

    void release(int admittedIn) {
      if (admittedIn == generation && state == CircuitState.HALF_OPEN) {
        probing = false;
        generation++;
      }
    }

    void reset(long now) {
      close(now);
    }

    private void open(long now) {
      state = CircuitState.OPEN;
      probeAt = now + RESET_NANOS;
      generation++;
    }

    private void close(long now) {
      state = CircuitState.CLOSED;
      consecutiveFailures = 0;
      outcomes.clear();
      origin = now;
      generation++;
    }
  }
}
