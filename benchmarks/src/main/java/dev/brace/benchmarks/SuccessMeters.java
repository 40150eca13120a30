package dev.brace.benchmarks;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The meters {@code BraceMetrics} updates on one successful call, found by making one and looking
 * at what changed: the metered floor records into exactly these, so it copies today's binding by
 * construction rather than by a list written here. Today that is two timers, {@code
 * brace.attempts} ({@code outcome=success}) and {@code brace.calls} ({@code kind=call},
 * {@code outcome=success}), one sample each; anything else fails the trial, so the floor cannot
 * silently drift from what the binding does.
 *
 * @param attempt the timer of the attempt that succeeded
 * @param call the timer of the call it ended
 */
record SuccessMeters(Timer attempt, Timer call) {

  /**
   * @param meters the registry {@code BraceMetrics} is bound to
   * @param successfulCall one call through a wrapper of the bound Brace registry, which succeeds
   * @return the two timers that one more such call updated
   * @throws IllegalStateException when the call updated anything but one sample on each of those
   *     two timers
   */
  static SuccessMeters updatedBy(MeterRegistry meters, Runnable successfulCall) {
    successfulCall.run(); // the first call registers the call's meters; the second is the steady state
    Map<Meter.Id, List<Double>> before = readings(meters);
    successfulCall.run();
    Map<Meter.Id, List<Double>> after = readings(meters);
    List<Meter> changed = new ArrayList<>();
    for (Meter meter : meters.getMeters()) {
      List<Double> now = after.get(meter.getId());
      if (now != null && !now.equals(before.get(meter.getId()))) {
        changed.add(meter);
      }
    }
    Timer attempt = timerNamed(changed, "brace.attempts");
    Timer call = timerNamed(changed, "brace.calls");
    if (changed.size() != 2 || attempt == null || call == null || attempt.count() != 2 || call.count() != 2) {
      throw new IllegalStateException("two successful calls with BraceMetrics bound no longer update exactly one "
          + "brace.attempts and one brace.calls timer, one sample per call, but " + describe(changed)
          + ": make the metered floor do what the binding does now");
    }
    return new SuccessMeters(attempt, call);
  }

  /** What each meter a call can change reads now; gauges read live state, so they are left out. */
  private static Map<Meter.Id, List<Double>> readings(MeterRegistry meters) {
    Map<Meter.Id, List<Double>> readings = new HashMap<>();
    for (Meter meter : meters.getMeters()) {
      if (meter instanceof Gauge || meter instanceof TimeGauge) {
        continue;
      }
      List<Double> measured = new ArrayList<>();
      for (Measurement measurement : meter.measure()) {
        measured.add(measurement.getValue());
      }
      readings.put(meter.getId(), measured);
    }
    return readings;
  }

  private static Timer timerNamed(List<Meter> changed, String name) {
    for (Meter meter : changed) {
      if (meter instanceof Timer timer && meter.getId().getName().equals(name)) {
        return timer;
      }
    }
    return null;
  }

  private static String describe(List<Meter> changed) {
    List<String> described = new ArrayList<>();
    for (Meter meter : changed) {
      described.add(meter.getId() + (meter instanceof Timer timer ? " (count " + timer.count() + ")" : ""));
    }
    return described.isEmpty() ? "nothing" : String.join(", ", described);
  }
}
