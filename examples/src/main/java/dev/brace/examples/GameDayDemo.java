package dev.brace.examples;

import dev.brace.examples.incident.GameDay;
import dev.brace.examples.incident.HtmlReport;
import dev.brace.examples.incident.Incident;
import dev.brace.examples.incident.IncidentScript;
import dev.brace.examples.incident.Pacing;
import dev.brace.examples.incident.Phase;
import dev.brace.examples.incident.SummaryTable;
import dev.brace.runtime.Registry;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The incident demo as a game day ({@code mvn -q -Pdemo package -Ddemo=chaos}): both services stay
 * healthy, and the same incident — brownout, latency spike, hard down, recovery — is made by fault
 * injection settings alone, applied to the running registries as each phase begins. The run with
 * Brace answers it as it answers the real one; the run without goes through a wrapper with every
 * pattern switched off. Same live line, summary and HTML report as {@link IncidentDemo}.
 *
 * <p>The registries read {@code BRACE_*} variables and {@code brace.*} system properties too, under
 * the game day's settings: {@code BRACE_CIRCUITBREAKER_RECS_API_ENABLED=false} rehearses the day
 * without a breaker.
 */
public final class GameDayDemo {
  private GameDayDemo() {}

  /**
   * @param args optionally, where to write the report (default {@code game-day-report.html})
   * @throws Exception when the demo cannot run
   */
  public static void main(String[] args) throws Exception {
    Path report = Path.of(args.length > 0 ? args[0] : "game-day-report.html").toAbsolutePath();
    IncidentScript script = IncidentScript.standard();
    Map<Phase, Map<String, String>> plan = GameDay.plan(script);
    Map<String, String> environment = braceKeys(System.getenv(), "BRACE_");
    Map<String, String> properties = braceKeys(System.getProperties(), "brace.");
    Registry registry = Registry.builder().environment(GameDay.environmentAt(plan, Phase.HEALTHY, environment))
        .systemProperties(properties).build();
    GameDay gameDay = GameDay.of(plan, environment, properties, registry);
    System.out.println("game day: healthy services; the incident is fault injection, applied as each phase begins:");
    gameDay.describe().forEach(line -> System.out.println("  " + line));
    Incident.Result result = Incident.run(script, Pacing.realTime(script), 8, registry, System.out, gameDay);
    System.out.println();
    System.out.print(SummaryTable.render(result.without(), result.with()));
    HtmlReport.write(result, report);
    System.out.println();
    System.out.println("report: " + report);
  }

  private static Map<String, String> braceKeys(Map<?, ?> all, String prefix) {
    Map<String, String> brace = new HashMap<>();
    all.forEach((key, value) -> {
      if (key instanceof String name && name.startsWith(prefix) && value instanceof String text) {
        brace.put(name, text);
      }
    });
    return brace;
  }
}
