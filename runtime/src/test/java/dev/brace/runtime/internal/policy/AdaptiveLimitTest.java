package dev.brace.runtime.internal.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brace.Bulkhead;
import dev.brace.Criticality.Level;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.RecordedEvents;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the adaptive limit takes its samples: latency, the ring they pass through, the change events. */
class AdaptiveLimitTest {
  private final RecordedEvents events = new RecordedEvents();
  private final ManualTimeSource clock = new ManualTimeSource();

  private SemaphoreBulkhead bulkhead(Bulkhead.Adaptive algorithm, int min, int initial, int max) {
    BulkheadConfig config = BulkheadConfig.builder("bh").adaptive(algorithm)
        .minConcurrent(min).initialConcurrent(initial).maxConcurrent(max).build();
    return new SemaphoreBulkhead(config, clock, clock::scheduler, events.bus());
  }

  private List<AdaptiveLimit.Slot> admit(SemaphoreBulkhead bulkhead, int calls) {
    List<AdaptiveLimit.Slot> slots = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      bulkhead.acquire(Level.CRITICAL);
      slots.add(bulkhead.timed(null));
    }
    return slots;
  }

  @Test
  void aHigherMaximumGivesEveryAttemptItAdmitsASlotOfItsOwn() {
    SemaphoreBulkhead bulkhead = bulkhead(Bulkhead.Adaptive.AIMD, 1, 2, 2);
    bulkhead.reconfigure(BulkheadConfig.builder("bh").adaptive(Bulkhead.Adaptive.AIMD)
        .minConcurrent(8).initialConcurrent(8).maxConcurrent(8).build());
    // A pool still sized for the old maximum would leave the third attempt looking for a free slot for ever.
    List<AdaptiveLimit.Slot> slots = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> admit(bulkhead, 8));
    assertEquals(8, new java.util.HashSet<>(slots).size(), "eight attempts, eight slots");
    slots.forEach(slot -> bulkhead.completed(slot, null));
    assertEquals(8, bulkhead.available());
  }

  @Test
  void aChangeExactlyAHundredMillisecondsAfterTheLastReportIsReported() {
    SemaphoreBulkhead bulkhead = bulkhead(Bulkhead.Adaptive.AIMD, 1, 4, 100);
    List<AdaptiveLimit.Slot> slots = admit(bulkhead, 4);
    clock.advance(Duration.ofMillis(10));
    bulkhead.completed(slots.get(1), null); // admitted with 2 of 4 in flight: 4 -> 5
    clock.advance(Duration.ofMillis(100));
    bulkhead.completed(slots.get(2), null); // 3 in flight of 5: 5 -> 6
    List<Event> changes = events.of("bulkhead.limit_changed");
    assertEquals(2, changes.size(), "the second change came exactly 100 ms after the first report");
    assertEquals(5, changes.get(1).attributes().get("from"));
    assertEquals(6, changes.get(1).attributes().get("to"));
    bulkhead.completed(slots.get(0), null);
    bulkhead.completed(slots.get(3), null);
  }

  @Test
  void latencyIsMeasuredFromAdmissionOnAClockThatDidNotStartAtZero() {
    clock.advance(Duration.ofSeconds(1));
    SemaphoreBulkhead bulkhead = bulkhead(Bulkhead.Adaptive.VEGAS, 1, 20, 100);
    List<AdaptiveLimit.Slot> slots = admit(bulkhead, 20);
    clock.advance(Duration.ofMillis(10));
    bulkhead.completed(slots.get(19), null); // 10 ms: the no-load latency
    clock.advance(Duration.ofSeconds(1));
    AdaptiveLimit.Slot later = admit(bulkhead, 1).get(0);
    clock.advance(Duration.ofMillis(10));
    bulkhead.completed(later, null);
    assertEquals(26, bulkhead.limit(), "10 ms again, with the limit in use: no queue, grows by beta");
    slots.subList(0, 19).forEach(slot -> bulkhead.completed(slot, null));
  }

  @Test
  void theLimitStillMovesAfterMoreSamplesThanItsRingHolds() {
    SemaphoreBulkhead bulkhead = bulkhead(Bulkhead.Adaptive.AIMD, 1, 16, 16);
    for (int i = 0; i < 200; i++) {
      AdaptiveLimit.Slot slot = admit(bulkhead, 1).get(0);
      clock.advance(Duration.ofMillis(1));
      bulkhead.completed(slot, null);
    }
    assertEquals(16, bulkhead.limit());
    AdaptiveLimit.Slot timedOut = admit(bulkhead, 1).get(0);
    bulkhead.completed(timedOut, new TimeoutExceededException("bh", Duration.ofMillis(1)));
    assertEquals(14, bulkhead.limit(), "sample 201 is applied: a drop backs off by 0.9");
  }
}
