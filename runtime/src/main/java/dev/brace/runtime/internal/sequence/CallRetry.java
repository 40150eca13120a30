package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.policy.TimeoutPolicy;

/**
 * The retry at the level of the call, written once for every driver: after each attempt's outcome,
 * whether another attempt follows and after how long a wait, or the call ends (its end reported,
 * the earlier failures attached to the one it ends with). {@link RetryPolicy} decides each case;
 * this is the order the call asks it in.
 *
 * <p>The drivers differ only in how they wait and how they call the delegate: {@link SyncDriver}
 * sleeps the wait on the caller's thread, {@link AsyncDriver} schedules the next attempt, and a
 * driver outside the runtime is told the wait through its {@link DriverExecution} and asks again.
 *
 * <p>A call that needs no second attempt allocates nothing here: the {@link RetryRun} is made by
 * the first outcome the retry asks to repeat.
 */
final class CallRetry {
  private CallRetry() {}

  /**
   * After failed attempt {@code attempt} (a refusal included), the decision alone: nothing is
   * reported, so a driver that ends the call later reports it then ({@link #endedWith}).
   *
   * @param run the call's retry state so far, or null before its first retried outcome
   * @param started from {@link CallPolicies#begin}
   * @return the run to go on with, the wait before the next attempt in {@link RetryRun#waitNanos}
   *     and the failure remembered to be attached to the one that ends the call; or null: the call
   *     ends with {@code failure}, earlier failures attached to it
   */
  static RetryRun retrying(CallPolicies call, RetryRun run, int attempt, long started, Throwable failure) {
    RetryPolicy retry = call.retry();
    // An interrupt of the caller while it waited is its own doing: never retried.
    if (retry == null || TimeoutPolicy.interruptedCaller(failure)) {
      return null;
    }
    RetryRun continuing = retry.continuing(run);
    long delay = retry.decide(continuing, attempt, started, failure);
    if (delay == RetryPolicy.STOP) {
      return null;
    }
    continuing.recordFailure(failure);
    continuing.waitNanos(delay);
    return continuing;
  }

  /**
   * As {@link #retrying}; when the call ends here, its end is reported.
   *
   * @param last the attempt's state the failed attempt went through the pipeline with, or null: the clock
   *     is then read for the call's end
   */
  static RetryRun afterFailure(
      CallPolicies call, RetryRun run, int attempt, long started, AttemptState last, Throwable failure) {
    RetryRun continuing = retrying(call, run, attempt, started, failure);
    if (continuing == null) {
      call.ended(started, last, failure);
    }
    return continuing;
  }

  /**
   * After attempt {@code attempt} returned {@code result}: another attempt when the retry's result
   * predicate ({@code @Retry(onResult)}) asks for one and attempts, time and budget allow it;
   * otherwise the result is the call's, and the call's end is reported.
   *
   * @param last as {@link #afterFailure}; used only when the result is not retried
   * @return the run to go on with, the wait in {@link RetryRun#waitNanos}; or null: the call
   *     returns {@code result}
   * @throws RuntimeException what the result predicate threw: the attempt then failed with it
   */
  static RetryRun afterResult(
      CallPolicies call, RetryRun run, int attempt, long started, AttemptState last, Object result) {
    RetryPolicy retry = call.retry();
    if (retry == null || !retry.retriesResult(result)) {
      call.ended(started, last, null);
      return null;
    }
    RetryRun continuing = retry.continuing(run);
    long delay = retry.decideOnResult(continuing, attempt, started);
    if (delay == RetryPolicy.STOP) {
      call.ended(started, null);
      return null;
    }
    continuing.waitNanos(delay);
    return continuing;
  }

  /**
   * The call ends with a failure no decision was asked about: its caller was interrupted while it
   * waited out a backoff, or a stream failed after it passed elements on. The failure carries the
   * earlier ones, and the call's end is reported.
   *
   * @param run the call's retry state, or null when nothing was retried
   */
  static void endedWith(CallPolicies call, RetryRun run, long started, Throwable failure) {
    if (run != null) {
      run.attachEarlierFailuresTo(failure);
    }
    call.ended(started, failure);
  }
}
