package dev.brace.it.matrix;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every behavioural scenario through every form (generated wrapper or Stack; sync, async, Mono,
 * Flux, a Kotlin {@code suspend} function or a {@code Flow}), with its settings from every layer
 * (annotation, programmatic, environment), against the local backend and a non-local one, with
 * and without metrics (a metrics event listener and {@code BraceMetrics} bound as the Spring Boot
 * starter binds it, whose meters must count what the events tell: {@link MeterCheck}). Each cell
 * is its own test; a cell that cannot apply is reported as skipped with the reason. The report
 * lands on stdout and in {@code target/conformance-matrix.md}.
 */
class ConformanceMatrixTest {
  /**
   * A cell still running this long is hung: a little beyond {@link Cell#REAL_LIMIT}, which bounds
   * each wait inside the cell with a message that says what it waited for, so this one fires only
   * when the scenario's own thread is stuck.
   */
  private static final Duration CELL_LIMIT = Cell.REAL_LIMIT.plusSeconds(10);

  static final List<Scenario> SCENARIOS = List.of(
      new RetryExhaustion(),
      new RetryOnResult(),
      new RefusalNotRetried(),
      new BreakerCycle(),
      new LimiterRefuses(),
      new LimiterWaits(),
      new BulkheadRefuses(),
      new BulkheadWaits(),
      new BulkheadWaitReported(),
      new TimeoutInterrupts(),
      new TimeoutAbandons(),
      new FallbackWithCause(),
      new KeyedInstances(),
      new RetryBudget(),
      new RetryAfterHonoured(),
      new ErrorPassesThrough(),
      new AdaptiveBulkheadSheds(),
      new AdaptiveRateBacksOff(),
      new HedgeRace(),
      new NotIdempotentRetry(),
      new ContextFollowsTheCall(),
      new SlowCallOpening(),
      new StaleAnswers(),
      new StaleSingleFlight(),
      new Reconfigured(),
      new AttemptFitsRetry(),
      new NestedUnderADeadline(),
      new WaitedUnderADeadline(),
      new FaultInjected(),
      new TokenHeldAcrossAWait());

  private static final MatrixReport REPORT = new MatrixReport();

  /** {@code -Dmatrix.only=<words of a title>} runs the scenarios whose title contains them, while one is written. */
  private static final String ONLY = System.getProperty("matrix.only", "");

  @TestFactory
  Stream<DynamicContainer> matrix() {
    return chosen().stream().map(scenario -> dynamicContainer(scenario.title, cells(scenario)));
  }

  private static List<Scenario> chosen() {
    return SCENARIOS.stream().filter(scenario -> scenario.title.contains(ONLY)).toList();
  }

  private static Stream<DynamicTest> cells(Scenario scenario) {
    List<DynamicTest> cells = new ArrayList<>();
    for (Form form : Form.values()) {
      for (Layer layer : Layer.values()) {
        for (BackendChoice backend : BackendChoice.values()) {
          for (boolean listening : new boolean[] {false, true}) {
            String name = form.title + " · " + layer.title + " · " + backend.title + " · "
                + (listening ? "metrics listener" : "no listener");
            cells.add(dynamicTest(name, () -> run(scenario, form, layer, backend, listening)));
          }
        }
      }
    }
    return cells.stream();
  }

  private static void run(Scenario scenario, Form form, Layer layer, BackendChoice backend, boolean listening) throws Throwable {
    String notApplicable = scenario.notApplicable(form, layer, backend);
    if (notApplicable != null) {
      REPORT.add(new MatrixReport.Entry(scenario, form, layer, backend, listening, MatrixReport.Result.NOT_APPLICABLE, notApplicable));
      Assumptions.abort("not applicable: " + notApplicable);
    }
    try {
      // Closed here, on the test's thread, even when the scenario's thread is stuck and abandoned:
      // closing releases every held or blocked invocation, so no caller thread outlives its cell.
      try (Cell cell = new Cell(scenario, form, layer, backend, listening)) {
        assertTimeoutPreemptively(CELL_LIMIT, () -> {
          scenario.run(cell);
          cell.checkBackendUsed();
          cell.checkMeters();
        });
      }
    } catch (Throwable failed) {
      REPORT.add(new MatrixReport.Entry(scenario, form, layer, backend, listening, MatrixReport.Result.FAILED, reason(failed)));
      throw failed;
    }
    REPORT.add(new MatrixReport.Entry(scenario, form, layer, backend, listening, MatrixReport.Result.PASSED, null));
  }

  /** The first line of what failed, and of its cause when that says more. */
  private static String reason(Throwable failed) {
    String reason = failed.getClass().getSimpleName() + ": " + firstLine(failed.getMessage());
    Throwable cause = failed.getCause();
    if (cause != null && cause != failed) {
      reason += " (cause " + cause.getClass().getName() + ": " + firstLine(cause.getMessage()) + ")";
    }
    return reason.length() > 400 ? reason.substring(0, 400) + "…" : reason;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  @AfterAll
  static void report() {
    String summary = REPORT.render(chosen().size());
    System.out.println(summary);
    REPORT.write(Path.of("target", "conformance-matrix.md"), summary + REPORT.table());
  }
}
