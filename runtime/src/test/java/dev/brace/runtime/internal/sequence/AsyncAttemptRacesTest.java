package dev.brace.runtime.internal.sequence;

import static dev.brace.runtime.internal.sequence.AsyncFixture.onAnotherThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.support.CallKeys;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * One {@link AsyncAttempt} through a real pipeline ({@link PipelineRig}), with its caller's stop
 * landing from another thread in the middle of a step that runs here: while the attempt is
 * admitted, while the delegate is called, while its outcome is recorded. Each stop is staged at a
 * hook of the rig (an event of the admission, the delegate call, the breaker's record) and made on
 * a thread of its own, and each step runs on another thread bounded in time, so a step that
 * blocked, or a stop that acted on an attempt already over, shows as a hang or a second end
 * instead of passing unseen on one thread. The reliability module's {@code
 * AsyncAttemptLincheckTest} explores every interleaving of the same races; these are the ones a
 * mutation run of this module can see.
 */
class AsyncAttemptRacesTest {
  private final RecordedEnds ends = new RecordedEnds();

  private AsyncAttempt<String> attemptOf(PipelineRig rig) {
    CallFrame frame = rig.frame();
    return new AsyncAttempt<>(frame, frame.attemptState().start(CallKeys.NONE), PipelineRig.context(), ends);
  }

  @Test
  void aWaitWhoseTaskRunsBeforeItsSchedulingReturnsLeavesTheDeadlineItArmedForTheEndToCancel() {
    PipelineRig rig = new PipelineRig(1, true, 1, null);
    AsyncAttempt<String> attempt = attemptOf(rig);
    // The token's wait falls due on another thread before its scheduling returns; there the
    // attempt is admitted, calls the delegate and arms its deadline, a task of its own.
    AtomicBoolean first = new AtomicBoolean(true);
    rig.onScheduled = () -> {
      if (first.getAndSet(false)) {
        onAnotherThread(rig::oneSecondPasses);
      }
    };

    attempt.begin();
    assertEquals(1, rig.delegateCalls.get(), "admitted on the other thread as the wait was scheduled");
    rig.futures.get(0).complete("ok");

    assertEquals(List.of("succeeded"), ends.heard);
    assertEquals(2, rig.scheduled.size(), "the token's wait, then the deadline");
    assertTrue(rig.scheduled.get(1).isCancelled(),
        "the end cancels the deadline, the latest task, not the wait that had already run");
    assertEquals("", rig.held());
  }

  @Test
  void aStopAsTheWaitIsScheduledCancelsTheWaitItCouldNotYetSee() {
    PipelineRig rig = new PipelineRig(1, true, 1, null);
    AsyncAttempt<String> attempt = attemptOf(rig);
    // The stop lands after the scheduler took the token's wait, before the attempt published it.
    rig.onScheduled = () -> onAnotherThread(attempt::stop);

    attempt.begin();

    assertEquals(List.of("stopped"), ends.heard);
    assertEquals(1, rig.scheduled.size());
    assertTrue(rig.scheduled.get(0).isCancelled(), "the attempt cancels the wait the stop missed");
    assertEquals("", rig.held(), "the stop gave the reserved token back");
    rig.everythingFallsDue();
    assertEquals(0, rig.delegateCalls.get());
    assertEquals(List.of("stopped"), ends.heard);
  }

  @Test
  void aStopWhileTheAttemptIsAdmittedLeavesItsTicketToTheAdmittingStep() {
    PipelineRig rig = new PipelineRig(1, true, 1, null);
    AsyncAttempt<String> attempt = attemptOf(rig);
    attempt.begin();
    // The token's wait is reported as admission takes the token, before the bulkhead's permit.
    rig.events.subscribe(event -> {
      if (event.kind().equals("ratelimit.waited")) {
        onAnotherThread(attempt::stop);
      }
    });

    onAnotherThread(rig::oneSecondPasses);

    assertEquals(List.of("stopped"), ends.heard);
    assertEquals(0, rig.delegateCalls.get(), "a stopped attempt never reaches the delegate");
    assertEquals(1, rig.breaker.released.get(), "the breaker's state is released without an outcome");
    assertEquals(1, rig.limiter.used.get(), "the token was taken before the stop");
    assertEquals("", rig.held(), "the admitting step gave back the permit it took after the stop");
    rig.everythingFallsDue();
    assertEquals(0, rig.timeoutsReported.get(), "no deadline was armed");
    assertEquals(List.of("stopped"), ends.heard);
  }

  @Test
  void aStopWhileTheDelegateIsCalledCancelsTheFutureItReturnsAndItsDeadline() {
    PipelineRig rig = new PipelineRig(1, false, 1, null);
    AsyncAttempt<String> attempt = attemptOf(rig);
    rig.onDelegateCall = () -> onAnotherThread(attempt::stop);

    onAnotherThread(attempt::begin);

    assertEquals(List.of("stopped"), ends.heard);
    assertTrue(rig.futures.get(0).isCancelled(), "the future the delegate returned after the stop is cancelled");
    assertEquals(1, rig.breaker.released.get());
    assertEquals("", rig.held());
    rig.everythingFallsDue();
    assertEquals(0, rig.timeoutsReported.get(), "the deadline was cancelled with the attempt");
  }

  @Test
  void aStopWhileASuccessIsRecordedFindsTheAttemptOver() {
    PipelineRig rig = new PipelineRig(1, false, 1, null);
    AsyncAttempt<String> attempt = attemptOf(rig);
    attempt.begin();
    rig.breaker.onRecord = () -> onAnotherThread(attempt::stop);

    onAnotherThread(() -> rig.futures.get(0).complete("ok"));

    assertEquals(List.of("succeeded"), ends.heard);
    assertFalse(rig.futures.get(0).isCancelled());
    assertEquals(1, rig.breaker.successes.get());
    assertEquals(0, rig.breaker.released.get(), "the state was completed by the outcome, once");
    assertEquals("", rig.held());
    rig.everythingFallsDue();
    assertEquals(0, rig.timeoutsReported.get(), "the deadline was cancelled when the future completed");
  }

  @Test
  void aStopWhileTheDeadlinesFailureIsRecordedFindsTheAttemptOver() {
    PipelineRig rig = new PipelineRig(1, false, 1, null);
    AsyncAttempt<String> attempt = attemptOf(rig);
    attempt.begin();
    rig.breaker.onRecord = () -> onAnotherThread(attempt::stop);

    onAnotherThread(rig::everythingFallsDue);

    assertEquals(List.of("failed:TimeoutExceededException"), ends.heard);
    assertTrue(rig.futures.get(0).isCancelled(), "the deadline cancels the delegate's future");
    assertEquals(1, rig.timeoutsReported.get());
    assertEquals(1, rig.breaker.failures.get());
    assertEquals(0, rig.breaker.released.get());
    assertEquals("", rig.held());
  }

  @Test
  void aStopWhileTheAttemptWaitsForItsTokenGivesTheTokenBackAndNothingRunsLater() {
    PipelineRig rig = new PipelineRig(1, true, 1, null);
    AsyncAttempt<String> attempt = attemptOf(rig);
    attempt.begin();

    onAnotherThread(attempt::stop);
    assertEquals(1, rig.scheduled.size());
    assertTrue(rig.scheduled.get(0).isCancelled(), "the stop cancels the wait: nothing is left on the scheduler");
    rig.everythingFallsDue();

    assertEquals(List.of("stopped"), ends.heard);
    assertEquals(1, rig.limiter.givenBack.get(), "the reserved token is given back");
    assertEquals(0, rig.limiter.used.get());
    assertEquals(1, rig.breaker.acquired.get(), "admission did not go on after the stop");
    assertEquals(0, rig.delegateCalls.get());
    assertEquals("", rig.held());
  }
}
