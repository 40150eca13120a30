package dev.brace.examples;

import dev.brace.examples.capacity.CapacityReport;
import dev.brace.examples.capacity.CapacityScenario;
import java.nio.file.Path;

/**
 * The adaptive-limits demo ({@code mvn -q -Pdemo package -Ddemo=capacity}, about 45 seconds): a
 * catalog service whose capacity drops from 40 to 10 concurrent requests and recovers, called
 * through a fixed bulkhead of 40, a fixed one of 10 and an adaptive one, half the calls
 * sheddable; then a quota API answering 429 above 50 calls a second, called through a fixed and an
 * adaptive limiter set to 200. Prints a summary and writes an HTML report.
 */
public final class CapacityDemo {
  private CapacityDemo() {}

  /**
   * @param args optionally, where to write the report (default {@code capacity-report.html})
   * @throws Exception when the demo cannot run
   */
  public static void main(String[] args) throws Exception {
    Path report = Path.of(args.length > 0 ? args[0] : "capacity-report.html").toAbsolutePath();
    CapacityScenario.Result result = CapacityScenario.run(CapacityScenario.standard(), 18, 15, System.out);
    System.out.println();
    System.out.print(CapacityReport.summary(result));
    CapacityReport.write(result, report);
    System.out.println();
    System.out.println("report: " + report);
  }
}
