package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.Failures;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.support.CallKeys;
import java.time.Duration;

/**
 * The synchronous driver: walks a call's steps on the caller's thread ({@link CallFallback} around
 * {@link CallStaleAnswers} around the attempts {@link CallRetry} allows) and sleeps where the
 * retry says to wait. It decides nothing.
 *
 * <p>The call's arguments and its attempts' state live in the thread's {@link CallFrame}, borrowed
 * for the call, so a call allocates nothing of its own; each attempt goes through the call's
 * {@link AttemptPipeline}, waiting on this thread where admission asks to.
 */
public final class SyncDriver {
  private SyncDriver() {}

  /**
   * Runs a call through every step of its policies. What ends the call is thrown as itself (the
   * delegate's checked exceptions included, unwrapped), though this method declares none.
   *
   * @param callPolicies the call's policies
   * @param target the delegate
   * @return the result, or the fallback's
   */
  public static Object call(CallPolicies callPolicies, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    if (callPolicies.callsSyncWithoutWaiting()) {
      return withoutWaiting(callPolicies, target, a, b, c, d, x, y);
    }
    return staged(callPolicies, null, CallPolicies.UNTIMED, target, a, b, c, d, x, y);
  }

  /**
   * The first attempt made without waiting, with no frame; the call borrows one only when that
   * attempt did not start, or left a state (a full bulkhead, a failure), and goes on from there.
   */
  private static Object withoutWaiting(CallPolicies callPolicies, Object target, Object a, Object b, Object c, Object d,
      long x, long y) {
    long started = callPolicies.begin();
    Object outcome = callPolicies.attemptWithoutWaiting(target, a, b, c, d, x, y, started);
    if (outcome != AttemptPipeline.NOT_NOW && !(outcome instanceof AttemptState)) {
      return outcome;
    }
    return goOn(callPolicies, started, outcome instanceof AttemptState left ? left : null, target, a, b, c, d, x, y);
  }

  /** A call begun at {@code started}, its first attempt left in {@code left} (or not made: null), taken up in a frame. */
  private static Object goOn(CallPolicies callPolicies, long started, AttemptState left, Object target, Object a, Object b,
      Object c, Object d, long x, long y) {
    CallFrame frame = CallFrame.enter(callPolicies, target, a, b, c, d, x, y);
    try {
      return call(frame, true, started, left);
    } finally {
      frame.exit();
    }
  }

  // ---- a generated method that calls its delegate itself (see ResilientCall) ----

  /**
   * What {@link #admitNow} answers for a call whose policies never let the generated method call
   * its delegate (a timeout, a result predicate…): {@link #staged} then runs it as {@link #call}
   * does, its first attempt made without waiting through the slot invoker where that is allowed.
   */
  private static final Object NOT_DIRECTLY = new Object();

  /**
   * @param callPolicies the call's policies, read once for the call
   * @return the instant to {@linkplain #admitNow admit} the call's first attempt at, which starts
   *     the call too; {@link CallPolicies#UNTIMED} when nothing needs it, or the call does not
   *     admit without waiting
   */
  public static long instant(CallPolicies callPolicies) {
    return callPolicies.callsDelegateDirectly() ? callPolicies.attempts().instantToTakeNowAt() : CallPolicies.UNTIMED;
  }

  /**
   * Admits the call's first attempt now, if breaker, limiter and bulkhead each let it without
   * waiting, and begins the call then.
   *
   * @param callPolicies the call's policies, read once for the call (again: {@code instant} may have
   *     been read under others, and then the attempt is not admitted now if it needed one)
   * @param instant from {@link #instant}
   * @return what the attempt holds (see {@link #admitted}); null when nothing was taken now;
   *     {@link #NOT_DIRECTLY} when the call's policies never let a generated method call its
   *     delegate itself
   */
  public static Object admitNow(CallPolicies callPolicies, long instant) {
    if (!callPolicies.callsDelegateDirectly()) {
      return NOT_DIRECTLY;
    }
    Object taken = callPolicies.attempts().takeNow(instant);
    if (taken == AttemptPipeline.NOT_NOW) {
      return null;
    }
    callPolicies.begin(instant);
    return taken instanceof AttemptState left ? new HeldAttempt(callPolicies, null, left) : callPolicies.heldFor(taken);
  }

  /** @return whether {@code held}, from {@link #admitNow}, is an admitted attempt: the delegate may be called */
  public static boolean admitted(Object held) {
    return held instanceof HeldAttempt attempt && attempt.left == null;
  }

  /**
   * Records the success of an admitted attempt, and the call's end, on the policies that admitted it.
   *
   * @param held from {@link #admitNow}, {@linkplain #admitted admitted}
   * @param instant the instant it was admitted at
   * @throws RuntimeException when recording threw: the failure, recorded, for {@link #failed} to go on from
   */
  public static void succeeded(Object held, long instant) {
    HeldAttempt attempt = (HeldAttempt) held;
    Object outcome = attempt.callPolicies.attempts().succeededInLocals(attempt.taken, instant, null, instant,
        attempt.callPolicies);
    if (outcome instanceof AttemptState left) {
      throw new HeldAttempt.SuccessNotRecorded(left);
    }
  }

  /**
   * Leaves an admitted attempt that failed for {@link #staged} to go on from, as it goes on from an
   * attempt left at a full bulkhead: the failure recorded on the policies that admitted it, then
   * retried, answered by the fallback, or thrown as itself.
   *
   * @param held from {@link #admitNow}, {@linkplain #admitted admitted}
   * @param instant the instant it was admitted at
   * @param failure what the delegate threw, or what {@link #succeeded} threw
   * @return what the attempt left, for {@link #staged}
   */
  public static Object failed(Object held, long instant, Throwable failure) {
    HeldAttempt attempt = (HeldAttempt) held;
    AttemptState left = failure instanceof HeldAttempt.SuccessNotRecorded notRecorded
        ? notRecorded.left
        : attempt.callPolicies.attempts().failedInLocals(attempt.taken, instant, failure);
    return new HeldAttempt(attempt.callPolicies, null, left);
  }

  /**
   * Runs a call whose first attempt was not admitted now, or failed, as {@link #call} runs it: from
   * its first attempt when nothing was taken, from the full bulkhead the attempt stopped at, which
   * it waits for with what it holds, or from the failure {@link #failed} recorded. A call whose
   * policies never let the generated method call its delegate goes through {@link #call}.
   *
   * @param current the call's policies as they are now, for a call that took nothing
   * @param held from {@link #admitNow}, not {@linkplain #admitted admitted}; or from {@link #failed}
   * @param instant the instant passed to it
   */
  public static Object staged(CallPolicies current, Object held, long instant, Object target, Object a, Object b,
      Object c, Object d, long x, long y) {
    if (held instanceof HeldAttempt attempt) {
      return goOn(attempt.callPolicies, instant, attempt.left, target, a, b, c, d, x, y);
    }
    if (held == NOT_DIRECTLY) {
      return call(current, target, a, b, c, d, x, y);
    }
    CallFrame frame = CallFrame.enter(current, target, a, b, c, d, x, y);
    try {
      return call(frame, false, 0L, null);
    } finally {
      frame.exit();
    }
  }

  /**
   * @param begun whether the call has begun already ({@code started} is its start)
   * @param left the attempt's state the first attempt, made without waiting, left; null to make it here
   */
  private static Object call(CallFrame frame, boolean begun, long started, AttemptState left) {
    CallPolicies callPolicies = frame.policies();
    if (callPolicies.passesThrough()) {
      try {
        return frame.call();
      } catch (Throwable thrown) {
        throw Failures.rethrow(thrown);
      }
    }
    // A null key part is the caller's mistake: it ends the call at once, past every pattern.
    CallKeys keys = callPolicies.keys(frame.arguments());
    try {
      return callPolicies.remembersAnswers()
          ? CallStaleAnswers.call(frame, keys)
          : attempts(frame, keys, begun, started, left);
    } catch (Throwable failure) {
      return CallFallback.answer(frame, failure);
    }
  }

  /**
   * Every attempt the retry allows, each through breaker, limiter, bulkhead and timeout (a hedged
   * group of them where the call has a hedge).
   */
  static Object attempts(CallFrame frame, CallKeys keys, boolean begun, long started, AttemptState left)
      throws Throwable {
    CallPolicies callPolicies = frame.policies();
    if (begun) {
      callPolicies.began(frame.attemptState(), started);
    } else {
      started = callPolicies.begin(frame.attemptState());
    }
    RetryRun run = null;
    for (int number = 1; ; number++) {
      try {
        Object result = number == 1 && left != null ? resumed(frame, left) : attempt(frame, keys);
        RetryRun next = CallRetry.afterResult(callPolicies, run, number, started, frame.attemptState(), result);
        if (next == null) {
          return result;
        }
        if (!sleep(callPolicies, next.waitNanos())) {
          callPolicies.ended(started, null);
          return result;
        }
        run = next;
      } catch (Throwable failure) {
        run = CallRetry.afterFailure(callPolicies, run, number, started, frame.attemptState(), failure);
        if (run == null) {
          throw Failures.rethrow(failure);
        }
        if (!sleep(callPolicies, run.waitNanos())) {
          CallRetry.endedWith(callPolicies, run, started, failure);
          throw Failures.rethrow(failure);
        }
      }
    }
  }

  /**
   * Sleeps a wait the retry asked for, on the registry's clock.
   *
   * @return false when the caller was interrupted; its interrupt flag is set again
   */
  private static boolean sleep(CallPolicies callPolicies, long nanos) {
    try {
      callPolicies.time().sleep(Duration.ofNanos(nanos));
      return true;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * One attempt as the retry sees it: breaker, limiter, bulkhead and timeout on this thread; or,
   * when the call is hedged, a group of attempts on worker threads that take those steps each on
   * its own, while this thread waits for the one that decides.
   *
   * @throws Throwable the refusal, the deciding failure, or the hedge's last failure with the
   *     others attached
   */
  private static Object attempt(CallFrame frame, CallKeys keys) throws Throwable {
    CallPolicies callPolicies = frame.policies();
    if (callPolicies.hedged()) {
      return SyncHedgeGroup.run(callPolicies, keys, frame, frame.attemptState());
    }
    AttemptPipeline pipeline = callPolicies.attempts();
    AttemptState state = frame.attemptState().start(keys);
    pipeline.admitBlocking(state);
    return admitted(pipeline, state, frame);
  }

  /** The attempt made without waiting, taken up where it left its attempt's state. */
  private static Object resumed(CallFrame frame, AttemptState left) throws Throwable {
    AttemptPipeline pipeline = frame.policies().attempts();
    AttemptState state = frame.attemptState().start(CallKeys.NONE);
    state.takeOver(left);
    Throwable failure = left.failure();
    if (failure != null) {
      if (!left.failureRecorded()) {
        pipeline.failed(state, failure);
      }
      throw failure;
    }
    pipeline.admitBlocking(state);
    return admitted(pipeline, state, frame);
  }

  private static Object admitted(AttemptPipeline pipeline, AttemptState state, CallFrame frame) throws Throwable {
    Object result;
    try {
      result = pipeline.bounds().invoke(state, frame);
    } catch (Throwable failure) {
      pipeline.failed(state, failure);
      throw failure;
    }
    pipeline.succeeded(state, result);
    return result;
  }
}
