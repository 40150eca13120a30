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
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * The local breaker against a plain state machine with generations, in count mode and in both
 * rate modes (last N calls, time buckets), driven by random calls, held tickets completed late,
 * released probes, resets and clock moves. State, refusals and their retry-after agree after every
 * operation.
 */
class CircuitBreakerProperties {

  private static final long RESET_NANOS = Duration.ofSeconds(10).toNanos();
  private static final Duration WINDOW = Duration.ofSeconds(10);
  private static final int BUCKETS = 5;

  enum Kind { SUCCEED, FAIL, HOLD, COMPLETE_HELD_OK, COMPLETE_HELD_FAILED, RELEASE_HELD, ADVANCE, RESET }

  /** One operation; {@code amount} is a time step in tenths of a second, or which held ticket. */
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
    return kinds.flatMap(kind -> Arbitraries.integers().between(0, 150).map(amount -> new Op(kind, amount)))
        .list().ofMaxSize(80);
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
      @ForAll @DoubleRange(min = 0.1, max = 1.0) double failureRate,
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
      @ForAll @DoubleRange(min = 0.1, max = 1.0) double failureRate,
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

  private static void run(CircuitBreakerConfig config, List<Op> ops) {
    ManualTimeSource clock = new ManualTimeSource();
    DefaultCircuitBreaker breaker = new DefaultCircuitBreaker(config, clock, new EventBus(Clock.systemUTC()));
    BreakerModel model = new BreakerModel(config, clock.nanoTime());
    List<Object> held = new ArrayList<>();
    List<Integer> heldGenerations = new ArrayList<>();
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
          } else {
            boolean failed = op.kind() == Kind.FAIL;
            breaker.record(ticket, failed, false, failed ? failure : null);
            model.record(generation, failed, now);
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
          if (op.kind() == Kind.RELEASE_HELD) {
            breaker.release(ticket);
            model.release(generation);
          } else {
            boolean failed = op.kind() == Kind.COMPLETE_HELD_FAILED;
            breaker.record(ticket, failed, false, failed ? failure : null);
            model.record(generation, failed, now);
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

  /** The breaker as a plain state machine; every new state is a new generation. */
  static final class BreakerModel {
    private final CircuitBreakerConfig config;
    private final long bucketNanos;
    CircuitState state = CircuitState.CLOSED;
    int generation;
    int consecutiveFailures;
    /** Outcomes of this CLOSED generation: {epoch or sequence, failed}. */
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

    void record(int admittedIn, boolean failed, long now) {
      if (admittedIn != generation) {
        return;
      }
      if (state == CircuitState.CLOSED) {
        if (config.rateMode()) {
          recordRate(failed, now);
        } else if (!failed) {
          consecutiveFailures = 0;
        } else if (++consecutiveFailures >= config.failureThreshold()) {
          open(now);
        }
      } else if (failed) {
        open(now);
      } else if (++successes < config.successThreshold()) {
        probing = false;
        generation++;
      } else {
        close(now);
      }
    }

    private void recordRate(boolean failed, long now) {
      long epoch = (now - origin) / bucketNanos;
      outcomes.add(new long[] {epoch, failed ? 1 : 0});
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
      long failures = counted.stream().filter(o -> o[1] == 1).count();
      if (counted.size() >= config.minimumCalls()
          && (double) failures / counted.size() >= config.failureRate()) {
        open(now);
      }
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
