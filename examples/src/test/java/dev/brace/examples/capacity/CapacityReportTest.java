package dev.brace.examples.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.examples.capacity.CapacityScenario.Phase;
import dev.brace.examples.capacity.CapacityScenario.Result;
import dev.brace.examples.capacity.CapacityScenario.Run;
import dev.brace.examples.capacity.Timeline.Outcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The capacity demo's numbers and page, from a timeline written by hand. */
class CapacityReportTest {

  @Test
  void theSummaryCountsPerPhaseAndThePageDrawsEveryRun() {
    List<Phase> phases = List.of(new Phase("healthy", 40, Duration.ofSeconds(1)), new Phase("degraded", 10, Duration.ofSeconds(1)));
    Timeline capacity = new Timeline(8);
    for (int i = 0; i < 8; i++) {
      capacity.record(i * 250 + 10, Outcome.SERVED_DEFAULT, i < 4 ? 100 : 300);
      capacity.sample(i, i < 4 ? 40 : 12, i < 4 ? 20 : 11);
    }
    capacity.record(1_100, Outcome.REFUSED, 0);
    capacity.record(1_200, Outcome.TIMED_OUT, 5_000);
    Timeline quota = new Timeline(4);
    quota.record(100, Outcome.SERVED_DEFAULT, 5);
    quota.record(200, Outcome.THROTTLED, 5);
    quota.sample(3, 57, 0);
    Result result = new Result(phases, List.of(new Run("adaptive", capacity)), 1, List.of(new Run("quota", quota)));

    String summary = CapacityReport.summary(result);
    assertTrue(summary.contains("adaptive                             healthy          4.0      100      100       0.0         0    40.0"), summary);
    assertTrue(summary.contains("adaptive                             degraded         4.0      300      300       1.0         1    12.0"), summary);
    assertTrue(summary.contains("quota                                      1.0       1.0      57.0"), summary);
    String page = CapacityReport.render(result);
    assertEquals(4, page.split("<svg").length - 1, "three charts for the capacity run, one for the quota run");
    assertTrue(page.contains("limit and calls in flight") && page.contains("429 Too Many Requests"));
    assertEquals(40, CapacityScenario.capacityAt(phases, 999));
    assertEquals(10, CapacityScenario.capacityAt(phases, 1000));
  }
}
