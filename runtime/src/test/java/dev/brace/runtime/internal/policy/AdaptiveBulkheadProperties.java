package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.Criticality.Level;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The adaptive bulkhead against a model of its holders, driven by random operations on manual
 * time: takes at each criticality (timed, or untimed as a caller that never times its attempt),
 * completions after a latency with every kind of outcome (success, ordinary failure, timeout and
 * refusal passed on, which are drops, and an {@code Error} or a caller's interrupt, which teach
 * nothing), abandoned attempts, clock moves and new bounds.
 *
 * <p>After every operation: the limit lies within the bounds in force; every admission decision
 * is the one the limit and the shares give ({@code CRITICAL} while holders &lt; L, {@code DEFAULT}
 * while holders &lt; max(1, ceil(L · defaultShare)), {@code SHEDDABLE} likewise with its share), so
 * no holder was admitted past the limit in force at its admission; a less critical call is never
 * admitted at an instant where a more critical one was refused with the same holders; {@code
 * inFlight()} equals the holders. At the end every permit is back and a further release is refused.
 *
 * <p>The limit itself: AIMD is modelled exactly. GRADIENT2 and VEGAS are modelled by their bounds
 * per sample (their internal estimates and VEGAS's random probe interval are not): a sample that saw
 * fewer than half the limit in flight leaves the limit as it was (unless it is a VEGAS drop); a
 * GRADIENT2 sample moves it from L to within [floor(0.9 L + 0.8), L + 1]; a VEGAS sample within [L − s,
 * L + 6 s] with s = max(1, floor(log10 L)), and a VEGAS drop never raises it. A sample that teaches
 * nothing leaves it as it was. Apart, as runs: calls that all succeed at one steady latency never
 * lower the limit (every algorithm), and a run of timeouts never raises it (AIMD and VEGAS; GRADIENT2
 * reads latency only, so a drop is no signal of its own there).
 */
class AdaptiveBulkheadProperties {

  private static final Level[] MOST_CRITICAL_FIRST = {Level.CRITICAL, Level.DEFAULT, Level.SHEDDABLE};
  private static final long[] LATENCY_MILLIS = {0, 1, 3, 10, 50, 400};

  enum Kind { TAKE, TAKE_EVERY_LEVEL, TAKE_UNTIMED, COMPLETE, ABANDON, ADVANCE, RECONFIGURE }

  enum Outcome { SUCCESS, FAILURE, TIMEOUT, REFUSAL, ERROR, CALLER_INTERRUPTED }

  /** One operation; {@code index} picks the level, the holder, the latency or the new bounds. */
  record Op(Kind kind, int index, Outcome outcome) {}

  /** A permit held: its slot (null when untimed), and what the bulkhead looked like when it was admitted. */
  record Holder(TimedPermit slot, Level level, int limitAtAdmission, int inFlightAtAdmission) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Kind> kinds = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(5, Arbitraries.just(Kind.TAKE)),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.TAKE_EVERY_LEVEL)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.TAKE_UNTIMED)),
        net.jqwik.api.Tuple.of(6, Arbitraries.just(Kind.COMPLETE)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.ABANDON)),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(Kind.ADVANCE)),
        net.jqwik.api.Tuple.of(1, Arbitraries.just(Kind.RECONFIGURE)));
    return Combinators.combine(kinds, Arbitraries.integers().between(0, 59), Arbitraries.of(Outcome.values()))
        .as(Op::new)
        .list().ofMaxSize(100);
  }

  @Property
  void admissionsLimitAndPermitsAgreeWithTheModel(
      @ForAll("algorithms") Bulkhead.Adaptive algorithm,
      @ForAll @IntRange(min = 1, max = 3) int minConcurrent,
      @ForAll @IntRange(min = 0, max = 12) int extraMax,
      @ForAll @IntRange(min = 0, max = 12) int initialOffset,
      @ForAll @DoubleRange(min = 0.05, max = 1.0) double defaultShare,
      @ForAll @DoubleRange(min = 0.05, max = 1.0) double sheddableShare,
      @ForAll("ops") List<Op> ops) {
    int maxConcurrent = minConcurrent + extraMax;
    BulkheadConfig.Builder builder = BulkheadConfig.builder("bh").adaptive(algorithm)
        .minConcurrent(minConcurrent)
        .maxConcurrent(maxConcurrent)
        .initialConcurrent(minConcurrent + initialOffset % (extraMax + 1));
    if (sheddableShare > defaultShare) {
      // Such shares would admit a sheddable call where a default one was just refused: refused.
      ConfigurationException refused = assertThrows(ConfigurationException.class,
          () -> builder.defaultShare(defaultShare).sheddableShare(sheddableShare).build());
      assertEquals("sheddableShare", refused.attribute(), refused.getMessage());
      new Run(builder.defaultShare(sheddableShare).sheddableShare(defaultShare).build()).play(ops);
    } else {
      new Run(builder.defaultShare(defaultShare).sheddableShare(sheddableShare).build()).play(ops);
    }
  }

  @Property
  void callsSucceedingAtOneSteadyLatencyNeverLowerTheLimit(
      @ForAll("algorithms") Bulkhead.Adaptive algorithm,
      @ForAll @IntRange(min = 1, max = 3) int minConcurrent,
      @ForAll @IntRange(min = 0, max = 20) int extraMax,
      @ForAll @IntRange(min = 0, max = 20) int initialOffset,
      @ForAll @IntRange(min = 1, max = 200) int latencyMillis,
      @ForAll @Size(max = 40) List<@IntRange(min = 1, max = 24) Integer> waves) {
    runWaves(algorithm, minConcurrent, extraMax, initialOffset, waves, wave -> latencyMillis, null, (before, after) ->
        assertTrue(after >= before, "a steady success lowered the limit from " + before + " to " + after));
  }

  @Property
  void aRunOfTimeoutsNeverRaisesTheLimit(
      @ForAll("dropSignalled") Bulkhead.Adaptive algorithm,
      @ForAll @IntRange(min = 1, max = 3) int minConcurrent,
      @ForAll @IntRange(min = 0, max = 20) int extraMax,
      @ForAll @IntRange(min = 0, max = 20) int initialOffset,
      @ForAll @Size(max = 40) List<@IntRange(min = 1, max = 24) Integer> waves) {
    runWaves(algorithm, minConcurrent, extraMax, initialOffset, waves, wave -> LATENCY_MILLIS[wave % LATENCY_MILLIS.length],
        new TimeoutExceededException("call", Duration.ofMillis(1)), (before, after) ->
            assertTrue(after <= before, "a timeout raised the limit from " + before + " to " + after));
  }

  @Provide
  Arbitrary<Bulkhead.Adaptive> algorithms() {
    return Arbitraries.of(Bulkhead.Adaptive.AIMD, Bulkhead.Adaptive.GRADIENT2, Bulkhead.Adaptive.VEGAS);
  }

  @Provide
  Arbitrary<Bulkhead.Adaptive> dropSignalled() {
    return Arbitraries.of(Bulkhead.Adaptive.AIMD, Bulkhead.Adaptive.VEGAS);
  }

  interface Step {
    void check(int before, int after);
  }

  interface Latency {
    long millis(int wave);
  }

  /**
   * On a bulkhead of its own, each wave takes as many {@code CRITICAL} permits as it asks for and the
   * limit admits, waits its latency, then completes them all with {@code failure}; {@code step} sees
   * the limit around each completion.
   */
  private static void runWaves(
      Bulkhead.Adaptive algorithm, int minConcurrent, int extraMax, int initialOffset,
      List<Integer> waves, Latency latency, Throwable failure, Step step) {
    ManualTimeSource clock = new ManualTimeSource();
    SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(
        BulkheadConfig.builder("bh").adaptive(algorithm)
            .minConcurrent(minConcurrent)
            .maxConcurrent(minConcurrent + extraMax)
            .initialConcurrent(minConcurrent + initialOffset % (extraMax + 1)).build(),
        clock, clock::scheduler, new RecordedEvents().bus());
    for (int wave = 0; wave < waves.size(); wave++) {
      List<TimedPermit> slots = new ArrayList<>();
      for (int i = 0; i < waves.get(wave) && bulkhead.takeNow(Level.CRITICAL); i++) {
        slots.add(TimedPermit.taken(bulkhead, clock));
      }
      clock.advance(Duration.ofMillis(latency.millis(wave)));
      for (TimedPermit slot : slots) {
        int before = bulkhead.limit();
        slot.completed(failure);
        int after = bulkhead.limit();
        step.check(before, after);
        assertTrue(after >= bulkhead.config().minConcurrent() && after <= bulkhead.config().maxConcurrent(),
            "limit " + after + " outside its bounds");
      }
      assertEquals(0, bulkhead.inFlight(), "every permit of the wave back");
    }
    assertThrows(IllegalStateException.class, bulkhead::release, "a release without its acquire");
  }

  /** One sequence of operations against one bulkhead and its model. */
  private static final class Run {
    final ManualTimeSource clock = new ManualTimeSource();
    final SemaphoreBulkhead bulkhead;
    final List<Holder> holders = new ArrayList<>();
    BulkheadConfig config;
    /** AIMD only: the limit the model expects. */
    int modelLimit;

    Run(BulkheadConfig config) {
      this.config = config;
      this.bulkhead = new SemaphoreBulkhead(config, clock, clock::scheduler, new RecordedEvents().bus());
      this.modelLimit = config.initialConcurrent();
    }

    void play(List<Op> ops) {
      for (Op op : ops) {
        switch (op.kind()) {
          case TAKE:
            take(MOST_CRITICAL_FIRST[op.index() % 3], true);
            break;
          case TAKE_EVERY_LEVEL: {
            // Most critical first, all at one instant: once a level is refused the holders stay
            // as they are, so no less critical level may be admitted after it.
            boolean refusedAbove = false;
            for (Level level : MOST_CRITICAL_FIRST) {
              boolean admitted = take(level, true);
              assertFalse(admitted && refusedAbove,
                  level + " admitted right after a more critical call was refused, with " + holders.size() + " holders");
              refusedAbove |= !admitted;
            }
            break;
          }
          case TAKE_UNTIMED:
            take(MOST_CRITICAL_FIRST[op.index() % 3], false);
            break;
          case COMPLETE:
            if (!holders.isEmpty()) {
              clock.advance(Duration.ofMillis(LATENCY_MILLIS[op.index() % LATENCY_MILLIS.length]));
              complete(op.index() % holders.size(), op.outcome());
            }
            break;
          case ABANDON:
            if (!holders.isEmpty()) {
              abandon(op.index() % holders.size());
            }
            break;
          case ADVANCE:
            clock.advance(Duration.ofMillis(LATENCY_MILLIS[op.index() % LATENCY_MILLIS.length]));
            break;
          case RECONFIGURE:
            reconfigure(op.index());
            break;
          default:
            throw new IllegalStateException(op.toString());
        }
        checkAfter(op);
      }
      while (!holders.isEmpty()) {
        complete(holders.size() - 1, Outcome.SUCCESS);
      }
      assertEquals(0, bulkhead.inFlight(), "every permit back");
      assertEquals(bulkhead.limit(), bulkhead.available(), "the whole limit free again");
      assertThrows(IllegalStateException.class, bulkhead::release, "a release without its acquire");
    }

    /** @return whether the call was admitted, as the model says it must be */
    boolean take(Level level, boolean timed) {
      int limit = bulkhead.limit();
      boolean expected = holders.size() < threshold(limit, level);
      boolean admitted = bulkhead.takeNow(level);
      assertEquals(expected, admitted,
          level + " with " + holders.size() + " holders, limit " + limit + ", shares " + config.defaultShare()
              + "/" + config.sheddableShare());
      if (admitted) {
        TimedPermit slot = timed ? TimedPermit.taken(bulkhead, clock) : null;
        holders.add(new Holder(slot, level, limit, holders.size() + 1));
        assertTrue(holders.size() <= limit, holders.size() + " holders past the limit " + limit + " in force");
      }
      return admitted;
    }

    /** The model's admission threshold: the limit, or its share rounded up, at least 1. */
    int threshold(int limit, Level level) {
      if (level == Level.CRITICAL) {
        return limit;
      }
      double share = level == Level.DEFAULT ? config.defaultShare() : config.sheddableShare();
      return Math.max(1, (int) Math.ceil(limit * share));
    }

    void complete(int index, Outcome outcome) {
      Holder holder = holders.remove(index);
      int before = bulkhead.limit();
      if (holder.slot() == null) {
        bulkhead.release();
        assertEquals(before, bulkhead.limit(), "an untimed permit teaches nothing");
        return;
      }
      holder.slot().completed(failure(outcome));
      int after = bulkhead.limit();
      boolean sample = outcome != Outcome.ERROR && outcome != Outcome.CALLER_INTERRUPTED;
      if (!sample) {
        assertEquals(before, after, outcome + " teaches nothing");
        return;
      }
      boolean drop = outcome == Outcome.TIMEOUT || outcome == Outcome.REFUSAL;
      checkSample(before, after, holder.inFlightAtAdmission(), drop);
    }

    void abandon(int index) {
      Holder holder = holders.remove(index);
      int before = bulkhead.limit();
      if (holder.slot() == null) {
        bulkhead.release();
      } else {
        holder.slot().abandoned();
      }
      assertEquals(before, bulkhead.limit(), "an abandoned attempt teaches nothing");
    }

    /** New bounds (same algorithm and shares): the learnt limit stays, clamped to them. */
    void reconfigure(int index) {
      int min = 1 + index % 3;
      int max = min + index / 3 % 12;
      int before = bulkhead.limit();
      config = BulkheadConfig.builder("bh").adaptive(config.adaptive())
          .minConcurrent(min).maxConcurrent(max)
          .defaultShare(config.defaultShare()).sheddableShare(config.sheddableShare())
          .build();
      bulkhead.reconfigure(config);
      int clamped = Math.max(min, Math.min(max, before));
      assertEquals(clamped, bulkhead.limit(), "the limit learnt so far, clamped to [" + min + ", " + max + "]");
      modelLimit = clamped;
    }

    void checkSample(int before, int after, int inFlight, boolean drop) {
      int min = config.minConcurrent();
      int max = config.maxConcurrent();
      String sample = "sample (in flight " + inFlight + ", drop " + drop + ") moved the limit from " + before + " to " + after;
      switch (config.adaptive()) {
        case AIMD: {
          int next = drop ? (int) (before * 0.9) : inFlight * 2 >= before ? before + 1 : before;
          modelLimit = Math.max(min, Math.min(max, next));
          assertEquals(modelLimit, after, "AIMD: " + sample);
          break;
        }
        case GRADIENT2:
          if (inFlight * 2 < before) {
            assertEquals(before, after, "GRADIENT2, limit barely in use: " + sample);
          } else {
            assertTrue(after <= Math.min(max, before + 1), "GRADIENT2 grows by at most 1: " + sample);
            // The estimate e is in [L, L + 1) and its next value at least 0.9 e + 0.8 (gradient 0.5,
            // smoothing 0.2, queue 4); the small margin absorbs rounding of that sum.
            assertTrue(after >= Math.max(min, (int) (0.9 * before + 0.8 - 1e-9)),
                "GRADIENT2 shrinks to 0.9 L + 0.8 at most: " + sample);
          }
          break;
        case VEGAS: {
          int step = Math.max(1, (int) Math.log10(before));
          if (drop) {
            assertTrue(after <= before, "VEGAS: a drop raised the limit: " + sample);
          } else if (inFlight * 2 < before) {
            assertEquals(before, after, "VEGAS, limit barely in use: " + sample);
          }
          assertTrue(after <= Math.min(max, before + 6 * step), "VEGAS grows by at most 6 steps: " + sample);
          assertTrue(after >= Math.max(min, before - step), "VEGAS shrinks by at most one step: " + sample);
          break;
        }
        default:
          throw new IllegalStateException(config.adaptive().toString());
      }
    }

    void checkAfter(Op op) {
      int limit = bulkhead.limit();
      assertTrue(limit >= config.minConcurrent() && limit <= config.maxConcurrent(),
          "limit " + limit + " outside [" + config.minConcurrent() + ", " + config.maxConcurrent() + "] after " + op);
      if (config.adaptive() == Bulkhead.Adaptive.AIMD) {
        assertEquals(modelLimit, limit, "AIMD limit after " + op);
      }
      assertEquals(holders.size(), bulkhead.inFlight(), "inFlight() = holders after " + op);
      assertEquals(Math.max(0, limit - holders.size()), bulkhead.available(), "available() after " + op);
      for (Level level : MOST_CRITICAL_FIRST) {
        assertEquals(threshold(limit, level), bulkhead.threshold(level), level + " threshold after " + op);
      }
      for (Holder holder : holders) {
        assertTrue(holder.inFlightAtAdmission() <= holder.limitAtAdmission(),
            holder + " was admitted past the limit in force");
      }
    }

    private static Throwable failure(Outcome outcome) {
      switch (outcome) {
        case SUCCESS:
          return null;
        case FAILURE:
          return new IOException("down");
        case TIMEOUT:
          return new TimeoutExceededException("call", Duration.ofMillis(10));
        case REFUSAL:
          return new CircuitOpenException("deeper", null);
        case ERROR:
          return new AssertionError("an Error");
        case CALLER_INTERRUPTED:
          return new CallerInterrupted("'X.m' was interrupted", new InterruptedException());
        default:
          throw new IllegalStateException(outcome.toString());
      }
    }
  }
}
