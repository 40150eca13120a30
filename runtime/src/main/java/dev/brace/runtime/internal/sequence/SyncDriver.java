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
    CallFrame frame = CallFrame.enter(sequence, target, a, b, c, d, x, y);
    try {
      return call(frame, false, 0L, null);
    } finally {
      frame.exit();
    }
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
    CallFrame frame = CallFrame.enter(sequence, target, a, b, c, d, x, y);
    try {
      return call(frame, true, started, outcome instanceof AttemptTicket left ? left : null);
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
