package dev.brace.examples.incident;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How long each {@link Phase} lasts and how the service misbehaves in it. Immutable; the same
 * script drives both runs, so they can be compared.
 */
public final class IncidentScript {
  private final Map<Phase, Duration> durations;
  private final double brownoutShare;
  private final Duration spikeLatency;

  private IncidentScript(Map<Phase, Duration> durations, double brownoutShare, Duration spikeLatency) {
    this.durations = Collections.unmodifiableMap(new EnumMap<>(durations));
    this.brownoutShare = brownoutShare;
    this.spikeLatency = spikeLatency;
  }

  /** @return the demo's incident: 18 s in all */
  public static IncidentScript standard() {
    return of(3_000, 4_000, 3_000, 4_000, 4_000);
  }

  /**
   * @param millis how long each phase lasts, in {@link Phase} order
   * @return a script with a 30% brownout and 1.5 s responses during the spike
   * @throws IllegalArgumentException unless there is one positive duration per phase
   */
  public static IncidentScript of(long... millis) {
    Phase[] phases = Phase.values();
    if (millis.length != phases.length) {
      throw new IllegalArgumentException("one duration per phase: " + List.of(phases));
    }
    Map<Phase, Duration> durations = new EnumMap<>(Phase.class);
    for (int i = 0; i < phases.length; i++) {
      if (millis[i] <= 0) {
        throw new IllegalArgumentException(phases[i] + " must last more than 0 ms");
      }
      durations.put(phases[i], Duration.ofMillis(millis[i]));
    }
    return new IncidentScript(durations, 0.3, Duration.ofMillis(1_500));
  }

  /**
   * @param millis how long each phase lasts, in {@link Phase} order
   * @return a script that misbehaves as this one does, with those durations
   * @throws IllegalArgumentException unless there is one positive duration per phase
   */
  public IncidentScript withDurations(long... millis) {
    return new IncidentScript(of(millis).durations, brownoutShare, spikeLatency);
  }

  /**
   * @param elapsed time since the incident started
   * @return the phase at that moment; the last phase once the script is over
   */
  public Phase phaseAt(Duration elapsed) {
    Objects.requireNonNull(elapsed, "elapsed");
    Duration end = Duration.ZERO;
    for (Phase phase : Phase.values()) {
      end = end.plus(durations.get(phase));
      if (elapsed.compareTo(end) < 0) {
        return phase;
      }
    }
    return Phase.RECOVERY;
  }

  /** @return when each phase starts, relative to the incident's start, in order */
  public List<Duration> phaseStarts() {
    List<Duration> starts = new ArrayList<>();
    Duration start = Duration.ZERO;
    for (Phase phase : Phase.values()) {
      starts.add(start);
      start = start.plus(durations.get(phase));
    }
    return starts;
  }

  /** @return the whole incident */
  public Duration total() {
    return durations.values().stream().reduce(Duration.ZERO, Duration::plus);
  }

  /** @return the share of requests refused with 503 during the brownout */
  public double brownoutShare() {
    return brownoutShare;
  }

  /** @return how long the service takes to answer during the latency spike */
  public Duration spikeLatency() {
    return spikeLatency;
  }
}
