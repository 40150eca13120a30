package dev.brace.runtime.internal.sequence;

import dev.brace.reliability.Budget;
import dev.brace.reliability.Report;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.support.CallKeys;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck explores the races of one {@link AsyncHedgeGroup} of two attempts through a real
 * pipeline ({@link PipelineRig}: a counting breaker, a limiter of one token a second, a bulkhead of
 * two, a timeout of 1.5 s): the hedge's timer (the clock moving a second, which launches the second
 * attempt, or passes a deadline), either attempt's future completing, the first one failing (which
 * launches the second at once, racing the timer), and the caller cancelling the group, each on any
 * thread. {@link Operations#decidedOnceAndNothingHeld} checks after every interleaving that the
 * group is decided by one of its attempts' outcomes (or the cancellation), that it tells its driver
 * so at most once, that once it is decided every attempt it launched has ended — its future
 * complete or cancelled, its breaker ticket completed exactly once, no permit held, a reserved token
 * used or given back — that no attempt is launched after the decision and that at most one attempt
 * is reported as the winner.
 */
// Model checking is CPU-bound work of a fixed size, not a wait: at a load of 30 on two cores it
// takes minutes, past the build's two-minute default, which is meant to catch hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class AsyncHedgeGroupLincheckTest {

  /** The operations on one group, started in the constructor: attempt 1 has called the delegate. */
  public static class Operations {
    private final AtomicInteger hedgesWon = new AtomicInteger();
    private final PipelineRig rig = new PipelineRig(2, false, 2, (steps, events) -> {
      events.subscribe(event -> {
        if (event.kind().equals("hedge.won")) {
          hedgesWon.incrementAndGet();
        }
      });
      steps.hedge(new HedgePolicy(HedgeConfig.builder("hedge").delay("1s").maxHedges(1).build(), PipelineRig.CALL, events,
          null, false), Runnable::run);
    });
    /** What the group was told it is decided with, as its driver would be; or the cancellation. */
    private final CompletableFuture<String> decided = new CompletableFuture<>();
    private final AtomicInteger told = new AtomicInteger();
    private final AtomicInteger cancels = new AtomicInteger();
    private final AsyncHedgeGroup<String> group;

    public Operations() {
      // The call's first group, whose attempt 1 goes through with the frame's own ticket.
      group = AsyncHedgeGroup.of(rig.policies, CallKeys.NONE, rig.frame(), PipelineRig.context(), true,
          (value, failure) -> {
            told.incrementAndGet();
            if (failure == null) {
              decided.complete(value);
            } else {
              decided.completeExceptionally(failure);
            }
          });
      group.start();
    }

    /** The hedge's delay passes (the second attempt starts), or a deadline does. */
    @Operation
    public void oneSecondPasses() {
      rig.oneSecondPasses();
    }

    @Operation
    public void completeFirst() {
      rig.futures.get(0).complete("first");
    }

    /** Completes the second attempt's future, which the delegate returns when that attempt calls it. */
    @Operation
    public void completeSecond() {
      rig.futures.get(1).complete("second");
    }

    /** A failure the hedge answers: the second attempt starts at once, unless it has. */
    @Operation
    public void failFirst() {
      rig.futures.get(0).completeExceptionally(new IOException("first failed"));
    }

    /** The caller gives up. */
    @Operation
    public void cancel() {
      cancels.incrementAndGet();
      // As the driver does when its caller gives up: the call's future is done, the group stopped.
      decided.cancel(true);
      group.cancel();
    }

    @Validate
    public void decidedOnceAndNothingHeld() {
      String whenDecided = decided.isDone() ? invariants() : "";
      int callsWhenDecided = decided.isDone() ? rig.delegateCalls.get() : -1;
      rig.everythingFallsDue();
      String afterAll = invariants();
      if (!decided.isDone()) {
        afterAll = "the group was never decided; " + afterAll;
      }
      if (told.get() > 1) {
        afterAll = "the group was told it is decided " + told.get() + " times; " + afterAll;
      }
      if (callsWhenDecided >= 0 && rig.delegateCalls.get() != callsWhenDecided) {
        afterAll = "an attempt was launched after the group was decided; " + afterAll;
      }
      if (!whenDecided.isEmpty() || !afterAll.isEmpty()) {
        throw new IllegalStateException("as the group was decided: " + whenDecided + " / after everything fell due: " + afterAll);
      }
    }

    /** @return what is wrong now that the group is decided, or the empty string */
    private String invariants() {
      StringBuilder wrong = new StringBuilder(rig.held());
      for (int call = 0; call < Math.min(rig.delegateCalls.get(), rig.futures.size()); call++) {
        if (!rig.futures.get(call).isDone()) {
          wrong.append("attempt ").append(call + 1).append(" still running; ");
        }
      }
      if (hedgesWon.get() > 1) {
        wrong.append(hedgesWon).append(" hedge.won events; ");
      }
      if (decided.isCancelled()) {
        if (cancels.get() == 0) {
          wrong.append("cancelled without the caller cancelling; ");
        }
        return wrong.toString();
      }
      String outcome = decided.handle((value, failure) -> value != null ? value : unwrapped(failure)).join();
      boolean fromAnAttempt;
      switch (outcome) {
        case "first":
          fromAnAttempt = "first".equals(rig.futures.get(0).getNow(null));
          break;
        case "second":
          fromAnAttempt = rig.delegateCalls.get() >= 2 && "second".equals(rig.futures.get(1).getNow(null));
          break;
        case "IOException":
          // Failing alone decides only when no other attempt is left to answer.
          fromAnAttempt = rig.futures.get(0).isCompletedExceptionally();
          break;
        default:
          fromAnAttempt = outcome.equals("TimeoutExceededException") && rig.timeoutsReported.get() > 0;
      }
      if (!fromAnAttempt) {
        wrong.append("decided with ").append(outcome).append(", which no attempt ended with; ");
      }
      return wrong.toString();
    }

    private static String unwrapped(Throwable failure) {
      Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
      return cause.getClass().getSimpleName();
    }
  }

  @Test
  void aHedgeGroupIsDecidedOnceAndEveryAttemptItLaunchedEndsHoldingNothing() {
    Report report = new Report("lincheck-async-hedge-group");
    int iterations = Budget.pick(2, 30);
    int invocations = Budget.pick(100, 1_000);
    String[] none = {};
    String[] hedged = {"oneSecondPasses"};
    RaceModelChecking.options(iterations, invocations)
        // Both attempts running: either answer, or the caller, decides.
        .addCustomScenario(RaceModelChecking.race(Operations.class, hedged,
            new String[] {"completeFirst"}, new String[] {"completeSecond"}, new String[] {"cancel"}))
        // The first attempt's failure and the hedge's timer both launch the second; the caller gives up.
        .addCustomScenario(RaceModelChecking.race(Operations.class, none,
            new String[] {"failFirst"}, new String[] {"oneSecondPasses"}, new String[] {"cancel"}))
        // A loser's answer, a failure and the first attempt's deadline against the winner.
        .addCustomScenario(RaceModelChecking.race(Operations.class, hedged,
            new String[] {"completeFirst"}, new String[] {"oneSecondPasses"}, new String[] {"failFirst", "completeSecond"}))
        // The second attempt launched by a failure while the caller cancels and the first answers.
        .addCustomScenario(RaceModelChecking.race(Operations.class, none,
            new String[] {"failFirst", "completeSecond"}, new String[] {"completeFirst"}, new String[] {"cancel"}))
        .check(Operations.class);
    report.put("strategy", "model-checking").put("named_races", 4).put("random_scenarios", iterations)
        .put("invocations_per_scenario", invocations);
    RaceModelChecking.stressInLongMode(Operations.class, report);
    report.put("invariants", "decided-by-an-outcome-or-the-cancel,told-once,losers-ended,ticket-completed-once,no-permit-held,"
        + "reservation-used-or-given-back,no-launch-after-decision,one-winner").print();
  }
}
