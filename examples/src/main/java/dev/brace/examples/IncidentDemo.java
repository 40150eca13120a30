package dev.brace.examples;

import dev.brace.examples.incident.HtmlReport;
import dev.brace.examples.incident.Incident;
import dev.brace.examples.incident.IncidentScript;
import dev.brace.examples.incident.SummaryTable;
import dev.brace.runtime.Registry;
import java.nio.file.Path;

/**
 * The README's demo: a recommendations service goes through an incident (healthy, brownout,
 * latency spike, hard down, recovery) while eight callers call it, once through the plain client
 * and once through the generated {@code ResilientRecsClient}. Prints a live line every half second,
 * then a side-by-side summary, and writes an HTML report.
 *
 * <p>The Brace run's registry reads {@code BRACE_*} environment variables and {@code brace.*}
 * system properties, so {@code BRACE_CIRCUITBREAKER_RECS_API_ENABLED=false mvn -q -Pdemo package}
 * shows the same incident without a breaker.
 */
public final class IncidentDemo {
  private IncidentDemo() {}

  /**
   * @param args optionally, where to write the report (default {@code incident-report.html})
   * @throws Exception when the demo cannot run
   */
  public static void main(String[] args) throws Exception {
    Path report = Path.of(args.length > 0 ? args[0] : "incident-report.html").toAbsolutePath();
    Registry registry = Registry.builder().build();
    Incident.Result result = Incident.run(IncidentScript.standard(), 8, registry, System.out);
    System.out.println();
    System.out.print(SummaryTable.render(result.without(), result.with()));
    HtmlReport.write(result, report);
    System.out.println();
    System.out.println("report: " + report);
  }
}
