package dev.brace.examples.incident;

import dev.brace.examples.incident.IncidentRun.Call;
import dev.brace.examples.incident.IncidentRun.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The compact line printed every half second while both runs go on: what happened in the last
 * interval, side by side.
 */
public final class LiveLine {
  private static final Set<String> REFUSALS = Set.of("circuit.rejected", "bulkhead.rejected", "ratelimit.rejected");

  private LiveLine() {}

  /** @return the column titles that go above the lines */
  public static String header() {
    return String.format(Locale.ROOT, "%6s  %-13s | %-29s | %s", "t", "phase",
        "without Brace: ok  err  svc", "with Brace: ok  old  fb  err  svc  breaker    refused");
  }

  /**
   * @param fromMillis the interval's start, since the incident started
   * @param toMillis its end
   * @param without the run without Brace
   * @param with the run with Brace
   * @return one line about calls that ended in the interval
   */
  public static String render(long fromMillis, long toMillis, IncidentRun without, IncidentRun with) {
    Phase phase = with.pacing().played().phaseAt(Duration.ofMillis(Math.max(0, toMillis - 1)));
    List<Call> withoutCalls = window(without.calls(), fromMillis, toMillis);
    List<Call> withCalls = window(with.calls(), fromMillis, toMillis);
    long refused = with.events().stream()
        .filter(event -> event.atMillis() >= fromMillis && event.atMillis() < toMillis && REFUSALS.contains(event.kind()))
        .count();
    return String.format(Locale.ROOT, "%5.1fs  %-13s | %18d %4d %4d | %14d %4d %3d %4d %4d  %-9s %7d",
        toMillis / 1000.0, phase.label(),
        count(withoutCalls, Outcome.ANSWERED), count(withoutCalls, Outcome.ERROR), received(without, fromMillis, toMillis),
        count(withCalls, Outcome.ANSWERED), count(withCalls, Outcome.STALE), count(withCalls, Outcome.FALLBACK),
        count(withCalls, Outcome.ERROR),
        received(with, fromMillis, toMillis), with.breakerState().map(Enum::name).orElse("off"), refused);
  }

  private static List<Call> window(List<Call> calls, long fromMillis, long toMillis) {
    return calls.stream().filter(call -> call.endMillis() >= fromMillis && call.endMillis() < toMillis).toList();
  }

  private static long count(List<Call> calls, Outcome outcome) {
    return calls.stream().filter(call -> call.outcome() == outcome).count();
  }

  private static long received(IncidentRun run, long fromMillis, long toMillis) {
    return run.received().stream()
        .filter(request -> request.atMillis() >= fromMillis && request.atMillis() < toMillis).count();
  }
}
