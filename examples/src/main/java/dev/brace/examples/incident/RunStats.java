package dev.brace.examples.incident;

import dev.brace.examples.incident.IncidentRun.Call;
import dev.brace.examples.incident.IncidentRun.Outcome;
import dev.brace.examples.incident.IncidentRun.RecordedEvent;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The numbers of one run, computed from its three records: the callers' calls, the service's
 * access log and the registry's events.
 */
public final class RunStats {
  private final IncidentRun run;
  private final List<Call> calls;
  private final List<RecsService.Request> received;
  private final List<RecordedEvent> events;

  /** @param run a finished run */
  public RunStats(IncidentRun run) {
    this.run = run;
    this.calls = run.calls();
    this.received = run.received();
    this.events = run.events();
  }

  /** @return the run */
  public IncidentRun run() {
    return run;
  }

  /** @return every call */
  public List<Call> calls() {
    return calls;
  }

  /** @return the service's access log */
  public List<RecsService.Request> received() {
    return received;
  }

  /** @return the registry's events */
  public List<RecordedEvent> events() {
    return events;
  }

  /**
   * @param outcome what callers got
   * @return how many calls ended so
   */
  public long count(Outcome outcome) {
    return calls.stream().filter(call -> call.outcome() == outcome).count();
  }

  /**
   * @param phase a phase
   * @param outcome what callers got
   * @return how many calls started in that phase ended so
   */
  public long count(Phase phase, Outcome outcome) {
    return calls.stream().filter(call -> call.phase() == phase && call.outcome() == outcome).count();
  }

  /**
   * @param quantile 0.5 for the median, 0.99 for p99
   * @return that quantile of the callers' latency, in milliseconds
   */
  public double latencyMillis(double quantile) {
    return quantileMillis(calls, call -> true, quantile);
  }

  /**
   * @param calls some calls
   * @param which the ones to look at
   * @param quantile in [0, 1]
   * @return that quantile of their latency in milliseconds, or 0 when there are none
   */
  static double quantileMillis(List<Call> calls, Predicate<Call> which, double quantile) {
    long[] micros = calls.stream().filter(which).mapToLong(Call::latencyMicros).toArray();
    Arrays.sort(micros);
    return quantileMillis(micros, quantile);
  }

  /**
   * @param sortedMicros latencies in microseconds, sorted
   * @param quantile in [0, 1]
   * @return that quantile (the nearest rank) in milliseconds, or 0 when there are none
   */
  public static double quantileMillis(long[] sortedMicros, double quantile) {
    if (sortedMicros.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(quantile * sortedMicros.length) - 1;
    return sortedMicros[Math.max(0, Math.min(sortedMicros.length - 1, index))] / 1000.0;
  }

  /**
   * @param phase a phase
   * @return requests the service received during it
   */
  public long receivedIn(Phase phase) {
    return received.stream().filter(request -> request.phase() == phase).count();
  }

  /**
   * @param phase a phase
   * @return requests during it from a user who had asked before: retries
   */
  public long repeatsIn(Phase phase) {
    return received.stream().filter(request -> request.phase() == phase && request.repeat()).count();
  }

  /** @return how many events of each kind the registry emitted, by kind */
  public Map<String, Long> eventCounts() {
    Map<String, Long> counts = new TreeMap<>();
    events.forEach(event -> counts.merge(event.kind(), 1L, Long::sum));
    return counts;
  }

  /**
   * @param kind an event name
   * @return how many of it the registry emitted
   */
  public long events(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).count();
  }

  /** @return why fallbacks were served (from {@code fallback.used}), by simple exception name */
  public Map<String, Long> fallbackCauses() {
    Map<String, Long> causes = new TreeMap<>();
    events.stream().filter(event -> event.kind().equals("fallback.used"))
        .forEach(event -> causes.merge(causeOf(event), 1L, Long::sum));
    return causes;
  }

  /**
   * @param event a {@code fallback.used} event
   * @return the simple name of the exception it carries
   */
  static String causeOf(RecordedEvent event) {
    Object exception = event.attributes().get("exception");
    if (exception == null) {
      return "unknown";
    }
    String name = exception.toString();
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /** @return per phase, calls by outcome */
  public Map<Phase, Map<Outcome, Long>> outcomesByPhase() {
    Map<Phase, Map<Outcome, Long>> table = new EnumMap<>(Phase.class);
    for (Phase phase : Phase.values()) {
      Map<Outcome, Long> row = new EnumMap<>(Outcome.class);
      for (Outcome outcome : Outcome.values()) {
        row.put(outcome, count(phase, outcome));
      }
      table.put(phase, row);
    }
    return table;
  }
}
