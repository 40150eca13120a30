package dev.brace.examples.incident;

import static dev.brace.examples.Svg.escape;

import dev.brace.examples.incident.IncidentRun.Outcome;
import java.util.Locale;
import java.util.TreeMap;

/**
 * What the report says of a game day: the settings each phase ran with, and what to look at in each
 * timeline when the incident was injected into the callers' attempts rather than made by the
 * service.
 */
final class GameDayCaptions {
  private GameDayCaptions() {}

  /** The plan: per phase, the fault injection settings applied when it began. */
  static void settings(StringBuilder page, GameDay gameDay) {
    page.append("<h2>Game day settings</h2>\n<p class=\"note\">Applied to the running registries with "
        + "<code>registry.reconfigure</code> as each phase began, on top of <code>BRACE_CHAOS_ENABLED=true</code>; "
        + "the run without Brace has every pattern switched off (<code>…_ENABLED=false</code>) and the same "
        + "settings.</p>\n<table><tr><th>phase</th><th style=\"text-align:left\">settings</th></tr>\n");
    gameDay.plan().forEach((phase, settings) -> {
      page.append("<tr><td>").append(escape(phase.label())).append("</td><td style=\"text-align:left\">");
      if (settings.isEmpty()) {
        page.append("none");
      }
      new TreeMap<String, String>(settings).forEach((key, value) ->
          page.append("<code>").append(escape(key)).append('=').append(escape(value)).append("</code> "));
      page.append("</td></tr>\n");
    });
    page.append("</table>\n");
  }

  /** What to look at in one run's timeline. */
  static String caption(RunStats stats, IncidentScript script) {
    if (!stats.run().withBrace()) {
      return String.format(Locale.ROOT, "Every injected 503 and failure reaches a caller as an error (%d in all); in the "
          + "latency spike each caller first waits the injected %d ms, then the service answers. No injected failure "
          + "reached the healthy service: in the hard down it received %d requests, calls the spike had delayed into it.",
          stats.count(Outcome.ERROR), script.spikeLatency().toMillis(), stats.receivedIn(Phase.HARD_DOWN));
    }
    return String.format(Locale.ROOT, "<code>@Retry</code> answered the brownout's injected 503s with another attempt "
        + "(%d failed attempts there, <code>retry.attempt_failed</code>), so its callers got answers, not errors; in the "
        + "latency spike <code>@Timeout</code> cut each injected delay short at its deadline, as it would a slow service, "
        + "and the breaker saw the timeouts and opened; while open it refused %d calls at once. In the hard down %d "
        + "callers got their own earlier recommendations back (<code>@StaleIfError</code>) and %d the editors' picks; "
        + "%d calls ended in an error. %d injections in all (<code>chaos.injected</code>).",
        eventsIn(stats, "retry.attempt_failed", script, Phase.BROWNOUT), stats.events("circuit.rejected"),
        stats.count(Phase.HARD_DOWN, Outcome.STALE), stats.count(Phase.HARD_DOWN, Outcome.FALLBACK),
        stats.count(Outcome.ERROR), stats.events("chaos.injected"));
  }

  private static long eventsIn(RunStats stats, String kind, IncidentScript script, Phase phase) {
    return stats.events().stream()
        .filter(event -> event.kind().equals(kind) && script.phaseAt(java.time.Duration.ofMillis(event.atMillis())) == phase)
        .count();
  }
}
