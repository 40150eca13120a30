package dev.brace.examples.incident;

import dev.brace.examples.incident.IncidentRun.Outcome;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The side-by-side text summary printed at the end of the demo. */
public final class SummaryTable {
  private SummaryTable() {}

  /**
   * @param without the run without Brace
   * @param with the run with Brace
   * @return the summary, several lines
   */
  public static String render(RunStats without, RunStats with) {
    StringBuilder out = new StringBuilder();
    row(out, "", without.run().title(), with.run().title());
    out.append("what callers saw\n");
    row(out, "  calls", without.calls().size(), with.calls().size());
    row(out, "  answered by the service", without.count(Outcome.ANSWERED), with.count(Outcome.ANSWERED));
    row(out, "  the user's earlier answer (stale)", without.count(Outcome.STALE), with.count(Outcome.STALE));
    row(out, "  fallback (editors' picks)", without.count(Outcome.FALLBACK), with.count(Outcome.FALLBACK));
    row(out, "  error", without.count(Outcome.ERROR), with.count(Outcome.ERROR));
    row(out, "  latency p50 / p99", latency(without), latency(with));
    out.append("what the service received\n");
    row(out, "  requests in all", without.received().size(), with.received().size());
    row(out, "  during the brownout (retries)", brownout(without), brownout(with));
    row(out, "  during the latency spike", without.receivedIn(Phase.LATENCY_SPIKE), with.receivedIn(Phase.LATENCY_SPIKE));
    row(out, "  during the hard down", without.receivedIn(Phase.HARD_DOWN), with.receivedIn(Phase.HARD_DOWN));
    out.append("what Brace did (registry events)\n");
    with.eventCounts().forEach((kind, count) -> row(out, "  " + kind, "-", count));
    Map<String, Long> causes = with.fallbackCauses();
    if (!causes.isEmpty()) {
      out.append("  fallbacks by cause: ")
          .append(causes.entrySet().stream().map(cause -> cause.getKey() + " " + cause.getValue())
              .collect(Collectors.joining(", ")))
          .append('\n');
    }
    return out.toString();
  }

  private static String latency(RunStats stats) {
    return millis(stats.latencyMillis(0.5)) + " / " + millis(stats.latencyMillis(0.99)) + " ms";
  }

  /**
   * @param millis a latency
   * @return it with one decimal below 10 ms (a fallback answers in a fraction of one), none above
   */
  static String millis(double millis) {
    return String.format(Locale.ROOT, millis < 10 ? "%.1f" : "%.0f", millis);
  }

  private static String brownout(RunStats stats) {
    return stats.receivedIn(Phase.BROWNOUT) + " (" + stats.repeatsIn(Phase.BROWNOUT) + ")";
  }

  private static void row(StringBuilder out, String label, Object without, Object with) {
    out.append(String.format(Locale.ROOT, "%-34s %16s %16s%n", label, without, with));
  }
}
