package dev.brace.runtime.internal.sequence;

import dev.brace.reliability.Budget;
import dev.brace.reliability.Report;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.support.CallKeys;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck explores the races of one {@link AsyncAttempt} through a real {@link
 * dev.brace.runtime.internal.attempt.AttemptPipeline} ({@link PipelineRig}: a counting breaker, a
 * limiter whose token is a second away, a bulkhead of one, a timeout of 1.5 s): the token arriving
 * (the clock moving, which runs admission on that thread), the delegate's future completing or
 * failing, the deadline passing (the clock again) and the caller's {@code stop()}, each on any
 * thread at any moment. Whoever wins ends the attempt; {@link Operations#oneEnd} checks, after every
 * interleaving, that exactly one end was heard and that the ticket went back to the pipeline once:
 * the breaker completed the ticket once (it refuses a second completion) with the outcome the
 * listener heard, no permit is held, the reserved token was used or given back exactly once, and
 * the delegate's future was cancelled exactly when a stop or the deadline won after the delegate
 * was called.
 */
// Model checking is CPU-bound work of a fixed size, not a wait: at a load of 30 on two cores it
// takes minutes, past the build's two-minute default, which is meant to catch hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class AsyncAttemptLincheckTest {

  /** The operations on one attempt, begun in the constructor: it waits for its token. */
  public static class Operations {
    private final PipelineRig rig = new PipelineRig(1, true, 1, null);
    private final RecordedEnds ends = new RecordedEnds();
    private final AsyncAttempt<String> attempt;
    /** 1 once the model completed the delegate's future (before anyone cancelled it). */
    private final AtomicInteger completedHere = new AtomicInteger();

    public Operations() {
      CallFrame frame = rig.frame();
      attempt = new AsyncAttempt<>(frame, frame.attemptState().start(CallKeys.NONE), PipelineRig.context(), ends);
      // The breaker admits, the token is reserved for a second later: the admission waits on the scheduler.
      attempt.begin();
    }

    /** The token arrives, or (once the attempt is admitted) the deadline passes. */
    @Operation
    public void oneSecondPasses() {
      rig.oneSecondPasses();
    }

    @Operation
    public void complete() {
      if (rig.futures.get(0).complete("ok")) {
        completedHere.incrementAndGet();
      }
    }

    @Operation
    public void fail() {
      if (rig.futures.get(0).completeExceptionally(new IOException("failed"))) {
        completedHere.incrementAndGet();
      }
    }

    /** The caller gives up. */
    @Operation
    public void stop() {
      attempt.stop();
    }

    @Validate
    public void oneEnd() {
      String whenHeard = ends.heard.size() > 0 ? invariants() : "";
      rig.everythingFallsDue();
      String afterAll = invariants();
      if (ends.heard.size() != 1) {
        afterAll = ends.heard.size() + " ends heard (" + ends.first() + " first); " + afterAll;
      }
      if (!whenHeard.isEmpty() || !afterAll.isEmpty()) {
        throw new IllegalStateException("as the attempt ended: " + whenHeard + " / after everything fell due: " + afterAll);
      }
    }

    /** @return what is wrong now that the attempt has ended, or the empty string */
    private String invariants() {
      StringBuilder wrong = new StringBuilder(rig.held());
      String end = ends.first();
      CompletableFuture<String> returned = rig.futures.get(0);
      boolean called = rig.delegateCalls.get() > 0;
      boolean timedOut = ("failed:" + TimeoutExceededException.class.getSimpleName()).equals(end);
      boolean stopped = "stopped".equals(end);
      // A stop or the deadline may win the attempt just after the model completed the future
      // (its callback not yet run): the cancellation then finds it complete.
      if (called && (stopped || timedOut) && !returned.isCancelled() && completedHere.get() == 0) {
        wrong.append("the delegate's future was not cancelled after ").append(end).append("; ");
      }
      if (returned.isCancelled() && !stopped && !timedOut) {
        wrong.append("the delegate's future was cancelled, yet the attempt ").append(end).append("; ");
      }
      if (!called && !stopped && end != null) {
        wrong.append("ended by ").append(end).append(" without calling the delegate; ");
      }
      int successes = rig.breaker.successes.get();
      int failures = rig.breaker.failures.get();
      int released = rig.breaker.released.get();
      String expected = "succeeded".equals(end) ? "1/0/0" : end != null && end.startsWith("failed") ? "0/1/0" : "0/0/1";
      String recorded = successes + "/" + failures + "/" + released;
      if (rig.breaker.acquired.get() != 1 || !recorded.equals(expected)) {
        wrong.append("the breaker was told successes/failures/releases ").append(recorded)
            .append(" after ").append(end).append(" (expected ").append(expected).append("); ");
      }
      if (timedOut != (rig.timeoutsReported.get() == 1) || rig.timeoutsReported.get() > 1) {
        wrong.append(rig.timeoutsReported).append(" timeout.exceeded event(s) after ").append(end).append("; ");
      }
      return wrong.toString();
    }
  }

  @Test
  void exactlyOneOfTokenFutureDeadlineAndStopEndsTheAttemptAndItsTicketGoesBackOnce() {
    Report report = new Report("lincheck-async-attempt");
    int iterations = Budget.pick(2, 30);
    int invocations = Budget.pick(100, 1_000);
    String[] none = {};
    String[] admitted = {"oneSecondPasses"};
    RaceModelChecking.options(iterations, invocations)
        // The token arrives (admission runs) as the caller gives up.
        .addCustomScenario(RaceModelChecking.race(Operations.class, none, new String[] {"oneSecondPasses"}, new String[] {"stop"}))
        // Admitted: the delegate's answer, the deadline and the stop race to end it.
        .addCustomScenario(RaceModelChecking.race(Operations.class, admitted,
            new String[] {"complete"}, new String[] {"oneSecondPasses"}, new String[] {"stop"}))
        .addCustomScenario(RaceModelChecking.race(Operations.class, admitted,
            new String[] {"fail"}, new String[] {"complete"}, new String[] {"stop"}))
        // The future completes before, while or after the delegate returns it.
        .addCustomScenario(RaceModelChecking.race(Operations.class, none,
            new String[] {"complete"}, new String[] {"oneSecondPasses", "oneSecondPasses"}, new String[] {"stop"}))
        .check(Operations.class);
    report.put("strategy", "model-checking").put("named_races", 4).put("random_scenarios", iterations)
        .put("invocations_per_scenario", invocations);
    RaceModelChecking.stressInLongMode(Operations.class, report);
    report.put("invariants", "one-end,ticket-completed-once,outcome-as-heard,no-permit-held,reservation-used-or-given-back,"
        + "future-cancelled-iff-stop-or-deadline-won").print();
  }
}
