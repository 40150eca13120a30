package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.Criticality.Level;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The adaptive limit and admission by criticality, on manual time. */
class AdaptiveBulkheadTest {
  private final RecordedEvents events = new RecordedEvents();
  private final ManualTimeSource clock = new ManualTimeSource();

  private SemaphoreBulkhead bulkhead(BulkheadConfig.Builder config) {
    return new SemaphoreBulkhead(config.build(), clock, clock::scheduler, events.bus());
  }

  private static BulkheadConfig.Builder aimd(int min, int initial, int max) {
    return BulkheadConfig.builder("bh").adaptive(Bulkhead.Adaptive.AIMD)
        .minConcurrent(min).initialConcurrent(initial).maxConcurrent(max);
  }

  /** Runs {@code calls} attempts at once, each taking {@code latency}, failing with {@code failure} (or not). */
  private void wave(SemaphoreBulkhead bulkhead, int calls, Duration latency, Throwable failure) {
    List<TimedPermit> slots = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      bulkhead.acquire(Level.CRITICAL);
      slots.add(TimedPermit.taken(bulkhead, clock));
    }
    clock.advance(latency);
    slots.forEach(slot -> slot.completed(failure));
  }

  @Test
  void theLimitGrowsWhileCallsUseItAndBacksOffOnDropsWithinItsBounds() {
    SemaphoreBulkhead bulkhead = bulkhead(aimd(2, 4, 8));
    assertEquals(4, bulkhead.limit());
    wave(bulkhead, 4, Duration.ofMillis(10), null);
    assertEquals(7, bulkhead.limit(), "one more for each call that saw at least half the limit in flight");
    wave(bulkhead, 7, Duration.ofMillis(10), null);
    assertEquals(8, bulkhead.limit(), "never above maxConcurrent");

    wave(bulkhead, 1, Duration.ofMillis(10), new TimeoutExceededException("call", Duration.ofMillis(10)));
    assertEquals(7, bulkhead.limit(), "a timed-out attempt is a drop");
    wave(bulkhead, 1, Duration.ofMillis(10), new CircuitOpenException("deeper", null));
    assertEquals(6, bulkhead.limit(), "a refusal passed on by the dependency is a drop");
    wave(bulkhead, 6, Duration.ofMillis(10), new TimeoutExceededException("call", Duration.ofMillis(10)));
    assertEquals(2, bulkhead.limit(), "never below minConcurrent");
    assertEquals(0, bulkhead.inFlight());
  }

  @Test
  void anOrdinaryFailureIsALatencySampleAndAnErrorOrAGiveUpIsNone() {
    SemaphoreBulkhead bulkhead = bulkhead(aimd(1, 2, 10));
    wave(bulkhead, 1, Duration.ofMillis(10), new IOException("answered 500"));
    assertEquals(3, bulkhead.limit(), "a failure that is not a drop is a sample like a success");
    wave(bulkhead, 3, Duration.ofMillis(10), new StackOverflowError());
    bulkhead.acquire(Level.CRITICAL);
    TimedPermit.taken(bulkhead, clock).abandoned();
    assertEquals(3, bulkhead.limit());
    assertEquals(0, bulkhead.inFlight());
  }

  @Test
  void callsAreAdmittedByTheirShareOfTheCurrentLimit() {
    SemaphoreBulkhead bulkhead = bulkhead(BulkheadConfig.builder("bh").maxConcurrent(10));
    assertEquals(10, bulkhead.threshold(Level.CRITICAL));
    assertEquals(9, bulkhead.threshold(Level.DEFAULT));
    assertEquals(5, bulkhead.threshold(Level.SHEDDABLE));
    for (int i = 0; i < 5; i++) {
      assertTrue(bulkhead.takeNow(Level.SHEDDABLE));
    }
    assertFalse(bulkhead.takeNow(Level.SHEDDABLE));
    for (int i = 0; i < 4; i++) {
      assertTrue(bulkhead.takeNow(Level.DEFAULT));
    }
    assertFalse(bulkhead.takeNow(Level.DEFAULT));
    assertTrue(bulkhead.takeNow(Level.CRITICAL));
    assertFalse(bulkhead.takeNow(Level.CRITICAL));

    BulkheadFullException shed = assertThrows(BulkheadFullException.class, () -> bulkhead.acquire(Level.SHEDDABLE));
    assertEquals("bulkhead 'bh' sheds SHEDDABLE calls: 5 or more in flight (its share of the limit 10)", shed.getMessage());
    Event rejected = events.last();
    assertEquals("bulkhead.rejected", rejected.kind());
    assertEquals("SHEDDABLE", rejected.attributes().get("criticality"));
    assertEquals(10, rejected.attributes().get("in_flight"));
    assertEquals(10, rejected.attributes().get("limit"));
    BulkheadFullException full = assertThrows(BulkheadFullException.class, () -> bulkhead.acquire(Level.CRITICAL));
    assertEquals("bulkhead 'bh' is full (10 calls in flight)", full.getMessage());
  }

  @Test
  void everyLevelGetsAtLeastOneCallAndTheSharesFollowAnAdaptiveLimit() {
    SemaphoreBulkhead small = bulkhead(BulkheadConfig.builder("bh").maxConcurrent(1).sheddableShare(0.01));
    assertEquals(1, small.threshold(Level.SHEDDABLE));
    SemaphoreBulkhead adaptive = bulkhead(aimd(1, 4, 20));
    assertEquals(2, adaptive.threshold(Level.SHEDDABLE));
    wave(adaptive, 4, Duration.ofMillis(10), null);
    assertEquals(7, adaptive.limit());
    assertEquals(7, adaptive.threshold(Level.DEFAULT));
    assertEquals(4, adaptive.threshold(Level.SHEDDABLE));
  }

  @Test
  void limitChangesAreReportedAtMostEveryHundredMillisecondsAndChain() {
    SemaphoreBulkhead bulkhead = bulkhead(aimd(1, 4, 100));
    wave(bulkhead, 4, Duration.ofMillis(10), null);
    List<Event> changes = events.of("bulkhead.limit_changed");
    assertEquals(1, changes.size(), "four changes within 100 ms: one event");
    assertEquals(4, changes.get(0).attributes().get("from"));
    assertEquals(5, changes.get(0).attributes().get("to"));
    clock.advance(Duration.ofMillis(100));
    wave(bulkhead, 7, Duration.ofMillis(1), null);
    assertEquals(11, bulkhead.limit());
    changes = events.of("bulkhead.limit_changed");
    assertEquals(2, changes.size());
    assertEquals(5, changes.get(1).attributes().get("from"), "from: what the previous event reported");
    assertEquals(7, changes.get(1).attributes().get("to"), "the first sample after 100 ms reports the limit then");
  }

  /**
   * An attempt that ends without a sample (given up on, or an {@code Error}) still returns its
   * permit, and teaches the limit nothing.
   */
  @Test
  void anAttemptThatEndsWithoutASampleStillReturnsItsPermit() {
    SemaphoreBulkhead bulkhead = bulkhead(aimd(1, 2, 2));
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      for (int i = 0; i < 5; i++) {
        bulkhead.acquire(Level.CRITICAL);
        TimedPermit.taken(bulkhead, clock).abandoned();
        bulkhead.acquire(Level.CRITICAL);
        TimedPermit.taken(bulkhead, clock).completed(new StackOverflowError());
      }
    }, "a permit that was not returned leaves a later attempt waiting for one");
    assertEquals(0, bulkhead.inFlight());
    assertEquals(2, bulkhead.limit(), "no sample was taken");
  }

  @Test
  void aFixedBulkheadReadsNoClockAndTimesNothing() {
    SemaphoreBulkhead fixed = new SemaphoreBulkhead(
        BulkheadConfig.builder("bh").maxConcurrent(2).build(), clock::scheduler, events.bus());
    assertFalse(fixed.isAdaptive());
    assertEquals(2, fixed.limit());
  }

  /**
   * Shrunk by {@code AdaptiveBulkheadProperties}: limit 6 (AIMD from 1 to 6, starting at 6),
   * {@code defaultShare} 0.05 and {@code sheddableShare} 0.17. At one instant a CRITICAL call was
   * admitted, a DEFAULT call refused with that one holder (threshold 1) and a SHEDDABLE call then
   * admitted with the same holder (threshold 2): the less critical call got in where the more
   * critical one had not. Such shares are now refused, for fixed bulkheads too.
   */
  @Test
  void aSheddableShareAboveTheDefaultShareIsRefusedSoNoSheddableCallGetsInWhereADefaultOneDidNot() {
    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> aimd(1, 6, 6).defaultShare(0.05).sheddableShare(0.17).build());
    assertEquals("sheddableShare", refused.attribute(), refused.getMessage());
    assertTrue(refused.getMessage().contains("expected a number in (0, defaultShare (0.05)]"), refused.getMessage());
    assertThrows(ConfigurationException.class,
        () -> BulkheadConfig.builder("bh").maxConcurrent(6).defaultShare(0.05).sheddableShare(0.17).build(),
        "the shares apply to a fixed bulkhead as well");

    ConfigurationException byDefault = assertThrows(ConfigurationException.class,
        () -> BulkheadConfig.builder("bh").maxConcurrent(6).defaultShare(0.3).build());
    assertTrue(byDefault.getMessage().contains("(0.5 is sheddableShare's default: lowering defaultShare below it"
        + " needs sheddableShare set as well)"), "a default the user never wrote is named as one: " + byDefault.getMessage());

    SemaphoreBulkhead bulkhead = bulkhead(aimd(1, 6, 6).defaultShare(0.05).sheddableShare(0.05));
    assertTrue(bulkhead.takeNow(Level.CRITICAL));
    assertFalse(bulkhead.takeNow(Level.DEFAULT), "one holder fills ceil(6 · 0.05) = 1");
    assertFalse(bulkhead.takeNow(Level.SHEDDABLE), "and a SHEDDABLE call, at a share no larger, is refused too");
    bulkhead.release();
  }
}
