package dev.brace.runtime.internal.policy;

import dev.brace.reliability.Budget;
import dev.brace.reliability.Report;
import dev.brace.runtime.CircuitState;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck explores interleavings of threads acquiring, completing and releasing tickets of one
 * breaker and checks every outcome against {@link BreakerModel}: a HALF_OPEN breaker admits exactly
 * one probe however the threads race (the model refuses a second), and each transition happens
 * and is reported once ({@link BreakerOperations#eventsBalance}).
 */
// Model checking is CPU-bound work of a fixed size, not a wait: at a load of 30 on two cores it
// takes minutes, past the build's two-minute default, which is meant to catch hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class CircuitBreakerLincheckTest {

  /**
   * Starts OPEN with the cooldown over, so every thread's first acquire races for the probe; the
   * cooldown can pass again, so probes fail, succeed and race repeatedly.
   */
  public static class FromOpen extends BreakerOperations {
    public FromOpen() {
      super(CircuitState.OPEN);
    }

    @Operation
    public void cooldown() {
      cooldownOnce();
    }
  }

  /** Starts CLOSED, no time passes, and whole failed calls race to trip it. */
  public static class FromClosed extends BreakerOperations {
    public FromClosed() {
      super(CircuitState.CLOSED);
    }

    @Operation
    public void failedCall() {
      failedCallOnce();
    }
  }

  @Test
  void halfOpenAdmitsOneProbeAndEveryTransitionIsReportedOnce() {
    check(FromOpen.class, BreakerModel.FromOpen.class, "breaker-from-open");
  }

  @Test
  void concurrentFailuresTripOnceAndEveryTransitionIsReportedOnce() {
    check(FromClosed.class, BreakerModel.FromClosed.class, "breaker-from-closed");
  }

  private static void check(Class<?> test, Class<?> model, String name) {
    Report report = new Report("lincheck-" + name);
    int iterations = Budget.pick(6, 30);
    int invocations = Budget.pick(300, 1_000);
    ModelCheckingOptions modelChecking =
        new ModelCheckingOptions()
            .iterations(iterations)
            .invocationsPerIteration(invocations)
            .threads(3)
            .actorsPerThread(3)
            .actorsBefore(1)
            .actorsAfter(1)
            .sequentialSpecification(model);
    modelChecking.check(test);
    report.put("strategy", "model-checking").put("scenarios", iterations).put("invocations_per_scenario", invocations);
    if (Budget.longMode()) {
      new StressOptions()
              .iterations(30)
              .invocationsPerIteration(2_000)
              .threads(3)
              .actorsPerThread(3)
              .sequentialSpecification(model).check(test);
      report.put("stress_scenarios", 30);
    }
    report.put("invariants", "linearizable-vs-model,one-probe,events-balance").print();
  }
}
