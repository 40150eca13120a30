package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.Failures;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptTicket;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.support.CallKeys;
import java.time.Duration;

/**
 * The synchronous driver: walks a call's steps on the caller's thread ({@link CallFallback} around
 * {@link CallStaleAnswers} around the attempts {@link CallRetry} allows) and sleeps where the
 * retry says to wait. It decides nothing.
 *
 * <p>The call's arguments and its attempts' ticket live in the thread's {@link CallFrame}, borrowed
 * for the call, so a call allocates nothing of its own; each attempt goes through the call's
 * {@link AttemptPipeline}, waiting on this thread where admission asks to.
 */
public final class SyncDriver {
  private SyncDriver() {}

  /**
   * Runs a call through every step of its sequence. What ends the call is thrown as itself (the
   * delegate's checked exceptions included, unwrapped), though this method declares none.
   *
   * @param sequence the call's policies
   * @param target the delegate
   * @return the result, or the fallback's
   */
  public static Object call(CallSequence sequence, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    if (sequence.callsWithoutWaiting()) {
      return withoutWaiting(sequence, target, a, b, c, d, x, y);
    }
    return staged(sequence, null, CallSequence.UNTIMED, target, a, b, c, d, x, y);
  }

  /**
   * The first attempt made without waiting, with no frame; the call borrows one only when that
   * attempt did not start, or left a ticket (a full bulkhead, a failure), and goes on from there.
   */
  private static Object withoutWaiting(CallSequence sequence, Object target, Object a, Object b, Object c, Object d,
      long x, long y) {
    long started = sequence.begin();
    Object outcome = sequence.attemptWithoutWaiting(target, a, b, c, d, x, y, started);
    if (outcome != AttemptPipeline.NOT_NOW && !(outcome instanceof AttemptTicket)) {
      return outcome;
    }
    return goOn(sequence, started, outcome instanceof AttemptTicket left ? left : null, target, a, b, c, d, x, y);
  }

  /** A call begun at {@code started}, its first attempt left in {@code left} (or not made: null), taken up in a frame. */
  private static Object goOn(CallSequence sequence, long started, AttemptTicket left, Object target, Object a, Object b,
      Object c, Object d, long x, long y) {
    CallFrame frame = CallFrame.enter(sequence, target, a, b, c, d, x, y);
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
   * @param sequence the call's policies, read once for the call
   * @return the instant to {@linkplain #admitNow admit} the call's first attempt at, which starts
   *     the call too; {@link CallSequence#UNTIMED} when nothing needs it, or the call does not
   *     admit without waiting
   */
  public static long instant(CallSequence sequence) {
    return sequence.callsDelegateDirectly() ? sequence.attempts().instantToTakeNowAt() : CallSequence.UNTIMED;
  }

  /**
   * Admits the call's first attempt now, if breaker, limiter and bulkhead each let it without
   * waiting, and begins the call then.
   *
   * @param sequence the call's policies, read once for the call (again: {@code instant} may have
   *     been read under others, and then the attempt is not admitted now if it needed one)
   * @param instant from {@link #instant}
   * @return what the attempt holds (see {@link #admitted}); null when nothing was taken now;
   *     {@link #NOT_DIRECTLY} when the call's policies never let a generated method call its
   *     delegate itself
   */
  public static Object admitNow(CallSequence sequence, long instant) {
    if (!sequence.callsDelegateDirectly()) {
      return NOT_DIRECTLY;
    }
    Object taken = sequence.attempts().takeNow(instant);
    if (taken == AttemptPipeline.NOT_NOW) {
      return null;
    }
    sequence.begin(instant);
    return taken instanceof AttemptTicket left ? new HeldAttempt(sequence, null, left) : sequence.heldFor(taken);
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
    Object outcome = attempt.sequence.attempts().succeededWithoutTicket(attempt.taken, instant, null, instant,
        attempt.sequence);
    if (outcome instanceof AttemptTicket left) {
      throw new HeldAttempt.SuccessNotRecorded(left);
    }
  }

  /**
   * Goes on from an admitted attempt that failed, on the policies that admitted it, as {@link #call}
   * goes on from its first attempt's failure: recorded, then retried, answered by the fallback, or
   * thrown as itself.
   *
   * @param held from {@link #admitNow}, {@linkplain #admitted admitted}
   * @param instant the instant it was admitted at
   * @param failure what the delegate threw, or what {@link #succeeded} threw
   * @return the result of a later attempt, or the fallback's
   */
  public static Object failed(Object held, long instant, Throwable failure, Object target, Object a, Object b, Object c,
      Object d, long x, long y) {
    HeldAttempt attempt = (HeldAttempt) held;
    AttemptTicket left = failure instanceof HeldAttempt.SuccessNotRecorded notRecorded
        ? notRecorded.left
        : attempt.sequence.attempts().failedWithoutTicket(attempt.taken, instant, failure);
    return goOn(attempt.sequence, instant, left, target, a, b, c, d, x, y);
  }

  /**
   * Runs a call whose first attempt was not admitted now, as {@link #call} runs it: from its first
   * attempt when nothing was taken, or from the full bulkhead the attempt stopped at, which it
   * waits for with what it holds. A call whose policies never let the generated method call its
   * delegate goes through {@link #call}.
   *
   * @param current the call's policies as they are now, for a call that took nothing
   * @param held from {@link #admitNow}, not {@linkplain #admitted admitted}
   * @param instant the instant passed to it
   */
  public static Object staged(CallSequence current, Object held, long instant, Object target, Object a, Object b,
      Object c, Object d, long x, long y) {
    if (held instanceof HeldAttempt attempt) {
      return goOn(attempt.sequence, instant, attempt.left, target, a, b, c, d, x, y);
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
   * @param left the ticket the first attempt, made without waiting, left; null to make it here
   */
  private static Object call(CallFrame frame, boolean begun, long started, AttemptTicket left) {
    CallSequence sequence = frame.sequence();
    if (sequence.passesThrough()) {
      try {
        return frame.call();
      } catch (Throwable thrown) {
        throw Failures.rethrow(thrown);
      }
    }
    // A null key part is the caller's mistake: it ends the call at once, past every pattern.
    CallKeys keys = sequence.keys(frame.arguments());
    try {
      return sequence.remembersAnswers()
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
  static Object attempts(CallFrame frame, CallKeys keys, boolean begun, long started, AttemptTicket left)
      throws Throwable {
    CallSequence sequence = frame.sequence();
    if (begun) {
      sequence.began(frame.ticket(), started);
    } else {
      started = sequence.begin(frame.ticket());
    }
    RetryRun run = null;
    for (int number = 1; ; number++) {
      try {
        Object result = number == 1 && left != null ? resumed(frame, left) : attempt(frame, keys);
        RetryRun next = CallRetry.afterResult(sequence, run, number, started, frame.ticket(), result);
        if (next == null) {
          return result;
        }
        if (!sleep(sequence, next.waitNanos())) {
          sequence.ended(started, null);
          return result;
        }
        run = next;
      } catch (Throwable failure) {
        run = CallRetry.afterFailure(sequence, run, number, started, frame.ticket(), failure);
        if (run == null) {
          throw Failures.rethrow(failure);
        }
        if (!sleep(sequence, run.waitNanos())) {
          CallRetry.endedWith(sequence, run, started, failure);
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
  private static boolean sleep(CallSequence sequence, long nanos) {
    try {
      sequence.time().sleep(Duration.ofNanos(nanos));
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
    CallSequence sequence = frame.sequence();
    if (sequence.hedged()) {
      return SyncHedgeGroup.run(sequence, keys, frame, frame.ticket());
    }
    AttemptPipeline pipeline = sequence.attempts();
    AttemptTicket ticket = frame.ticket().start(keys);
    pipeline.admitBlocking(ticket);
    return admitted(pipeline, ticket, frame);
  }

  /** The attempt made without waiting, taken up where it left its ticket. */
  private static Object resumed(CallFrame frame, AttemptTicket left) throws Throwable {
    AttemptPipeline pipeline = frame.sequence().attempts();
    AttemptTicket ticket = frame.ticket().start(CallKeys.NONE);
    pipeline.resume(ticket, left);
    Throwable failure = left.failure();
    if (failure != null) {
      if (!left.failureRecorded()) {
        pipeline.failed(ticket, failure);
      }
      throw failure;
    }
    pipeline.admitBlocking(ticket);
    return admitted(pipeline, ticket, frame);
  }

  private static Object admitted(AttemptPipeline pipeline, AttemptTicket ticket, CallFrame frame) throws Throwable {
    Object result;
    try {
      result = pipeline.bounds().invoke(ticket, frame);
    } catch (Throwable failure) {
      pipeline.failed(ticket, failure);
      throw failure;
    }
    pipeline.succeeded(ticket, result);
    return result;
  }
}
