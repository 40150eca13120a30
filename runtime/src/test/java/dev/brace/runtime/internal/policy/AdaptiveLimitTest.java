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

  private List<TimedPermit> admit(SemaphoreBulkhead bulkhead, int calls) {
    List<TimedPermit> slots = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      bulkhead.acquire(Level.CRITICAL);
      slots.add(TimedPermit.taken(bulkhead, clock));
    }
    return slots;
  }

  @Test
  void aHigherMaximumAdmitsAndTimesEveryAttemptUpToIt() {
    SemaphoreBulkhead bulkhead = bulkhead(Bulkhead.Adaptive.AIMD, 1, 2, 2);
    bulkhead.reconfigure(BulkheadConfig.builder("bh").adaptive(Bulkhead.Adaptive.AIMD)
        .minConcurrent(8).initialConcurrent(8).maxConcurrent(8).build());
    List<TimedPermit> slots = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> admit(bulkhead, 8));
    assertEquals(8, bulkhead.inFlight(), "eight attempts admitted under the new maximum");
    slots.forEach(slot -> slot.completed(null));
    assertEquals(8, bulkhead.available());
  }

  @Test
  void aChangeExactlyAHundredMillisecondsAfterTheLastReportIsReported() {
    SemaphoreBulkhead bulkhead = bulkhead(Bulkhead.Adaptive.AIMD, 1, 4, 100);
    List<TimedPermit> slots = admit(bulkhead, 4);
    clock.advance(Duration.ofMillis(10));
    slots.get(1).completed(null); // admitted with 2 of 4 in flight: 4 -> 5
    clock.advance(Duration.ofMillis(100));
    slots.get(2).completed(null); // 3 in flight of 5: 5 -> 6
    List<Event> changes = events.of("bulkhead.limit_changed");
    assertEquals(2, changes.size(), "the second change came exactly 100 ms after the first report");
    assertEquals(5, changes.get(1).attributes().get("from"));
    assertEquals(6, changes.get(1).attributes().get("to"));
    slots.get(0).completed(null);
    slots.get(3).completed(null);
  }

  @Test
  void aLowerMaximumClampsTheLimitEachAlgorithmHadLearnt() {
    for (Bulkhead.Adaptive algorithm : new Bulkhead.Adaptive[] {Bulkhead.Adaptive.AIMD, Bulkhead.Adaptive.GRADIENT2, Bulkhead.Adaptive.VEGAS}) {
      SemaphoreBulkhead bulkhead = bulkhead(algorithm, 1, 20, 100);
      bulkhead.reconfigure(BulkheadConfig.builder("bh").adaptive(algorithm)
          .minConcurrent(1).initialConcurrent(5).maxConcurrent(12).build());
      assertEquals(12, bulkhead.limit(), algorithm + ": the limit of 20 it held, brought down to the new maximum");
      bulkhead.reconfigure(BulkheadConfig.builder("bh").adaptive(algorithm)
          .minConcurrent(15).initialConcurrent(15).maxConcurrent(30).build());
      assertEquals(15, bulkhead.limit(), algorithm + ": and up to a new minimum");
    }
  }

  @Test
  void latencyIsMeasuredFromAdmissionOnAClockThatDidNotStartAtZero() {
    clock.advance(Duration.ofSeconds(1));
    SemaphoreBulkhead bulkhead = bulkhead(Bulkhead.Adaptive.VEGAS, 1, 20, 100);
    List<TimedPermit> slots = admit(bulkhead, 20);
    clock.advance(Duration.ofMillis(10));
    slots.get(19).completed(null); // 10 ms: the no-load latency
    clock.advance(Duration.ofSeconds(1));
    TimedPermit later = admit(bulkhead, 1).get(0);
    clock.advance(Duration.ofMillis(10));
    later.completed(null);
    assertEquals(26, bulkhead.limit(), "10 ms again, with the limit in use: no queue, grows by beta");
    slots.subList(0, 19).forEach(slot -> slot.completed(null));
  }

  @Test
  void theLimitStillMovesAfterMoreSamplesThanItsRingHolds() {
    SemaphoreBulkhead bulkhead = bulkhead(Bulkhead.Adaptive.AIMD, 1, 16, 16);
    for (int i = 0; i < 200; i++) {
      TimedPermit slot = admit(bulkhead, 1).get(0);
      clock.advance(Duration.ofMillis(1));
      slot.completed(null);
    }
    assertEquals(16, bulkhead.limit());
    TimedPermit timedOut = admit(bulkhead, 1).get(0);
    timedOut.completed(new TimeoutExceededException("bh", Duration.ofMillis(1)));
    assertEquals(14, bulkhead.limit(), "sample 201 is applied: a drop backs off by 0.9");
  }
}
