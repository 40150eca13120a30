package dev.brace.runtime.internal.sequence;

import dev.brace.reliability.Budget;
import dev.brace.reliability.Report;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;

/** How the race models ({@link AsyncAttemptLincheckTest}, {@link AsyncHedgeGroupLincheckTest}) are model checked. */
final class RaceModelChecking {
  private RaceModelChecking() {}

  /**
   * Threads switch only in the code under test, not inside the collaborators that have models of
   * their own (the bulkhead, the token bucket), the event bus or the counting and recording
   * doubles, each of which runs as one step. (Not the manual scheduler: its queue is guarded by a
   * monitor its tasks take too, and a step Lincheck treats as atomic takes no part in the
   * monitor's exclusion.)
   *
   * @param iterations scenarios
   * @param invocations interleavings explored per scenario
   * @return the options, for 3 threads of 2 operations, one before and one after
   */
  static ModelCheckingOptions options(int iterations, int invocations) {
    return new ModelCheckingOptions()
        .iterations(iterations)
        .invocationsPerIteration(invocations)
        .threads(3)
        .actorsPerThread(2)
        .actorsBefore(1)
        .actorsAfter(1)
        .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(
                EventBus.class.getName(),
                SemaphoreBulkhead.class.getName(),
                TokenBucketRateLimiter.class.getName(),
                CountingBreaker.class.getName(),
                CountingBreaker.CountedTicket.class.getName(),
                CountingLimiter.class.getName(),
                RecordedEnds.class.getName())
            .allMethods()
            .treatAsAtomic())
        // The first interleavings instrument, class by class, everything an attempt touches (the
        // futures, the scheduler's tasks, the pipeline): on a loaded machine one of them takes
        // longer than Lincheck's 30 s allowance for a hung invocation. A real hang still fails,
        // after this longer allowance.
        .invocationTimeout$lincheck(300_000);
  }

  /**
   * In long mode only: the same operations on real threads as well (Lincheck's stress strategy),
   * 30 scenarios of 2,000 runs each; the report says so.
   *
   * @param operations the model's operations class
   * @param report the test's report line
   */
  static void stressInLongMode(Class<?> operations, Report report) {
    if (!Budget.longMode()) {
      return;
    }
    new StressOptions()
        .iterations(30)
        .invocationsPerIteration(2_000)
        .threads(3)
        .actorsPerThread(2)
        .check(operations);
    report.put("stress_scenarios", 30);
  }

  /**
   * A scenario the model always explores, besides the random ones: the operations named in {@code
   * before} run first on one thread, then each array of {@code threads} on a thread of its own, all
   * at once; the operations class's {@code @Validate} method checks the outcome.
   *
   * @param operations the model's operations class
   * @param before operations run before the race
   * @param threads the operations of each racing thread, by method name
   * @return the scenario
   */
  static ExecutionScenario race(Class<?> operations, String[] before, String[]... threads) {
    List<List<Actor>> parallel = new ArrayList<>();
    for (String[] thread : threads) {
      parallel.add(actors(operations, thread));
    }
    Method validation = Arrays.stream(operations.getMethods())
        .filter(method -> method.isAnnotationPresent(Validate.class))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(operations.getName() + " has no @Validate method"));
    return new ExecutionScenario(actors(operations, before), parallel, List.of(), actor(validation));
  }

  private static List<Actor> actors(Class<?> operations, String[] names) {
    List<Actor> actors = new ArrayList<>();
    for (String name : names) {
      try {
        actors.add(actor(operations.getMethod(name)));
      } catch (NoSuchMethodException unknown) {
        throw new IllegalArgumentException(operations.getName() + " has no operation " + name, unknown);
      }
    }
    return actors;
  }

  private static Actor actor(Method method) {
    return new Actor(method, List.of(), false, false, false, false, false);
  }
}
