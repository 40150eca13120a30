package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.spi.driver.DelegateCall;
import dev.brace.runtime.support.CallKeys;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hedged group of a synchronous call: each attempt runs on a worker thread (admission, the
 * attempt under its timeout, the outcome recorded) while the caller waits for the group to
 * decide. A losing attempt is stopped by interrupting its thread, and the caller returns only
 * once every attempt it started has ended, so nothing it started outlives the call: no attempt
 * still running, no permit held, no interrupt left on a pool thread.
 *
 * <p>When no worker thread is free (a full platform pool), attempt 1 runs on the caller's own
 * thread and hedges that find no thread are not started.
 *
 * <p>An attempt on a worker thread runs in the caller's context (MDC, trace context), taken once
 * when the group starts, and puts back what the worker held before it ends, so nothing of one
 * caller's stays on a pooled thread.
 *
 * @param <T> the result type
 */
final class SyncHedgeGroup<T> extends HedgeGroup<T> {
  private final CallKeys keys;
  private final DelegateCall attempt;
  private final AttemptPipeline pipeline;
  private final Executor workers;
  private final Thread caller;
  /** The call's own attempt's state: each attempt's passes on the call's bound as it does. */
  private final AttemptState callTicket;
  /** Completes with the deciding outcome, or with the failure the whole group ends with. */
  private final CompletableFuture<T> decision = new CompletableFuture<>();

  private SyncHedgeGroup(CallPolicies policies, CallKeys keys, DelegateCall attempt, AttemptState callTicket) {
    super(policies, CallContext.capture(), true);
    this.keys = keys;
    this.attempt = attempt;
    this.callTicket = callTicket;
    this.pipeline = policies.attempts();
    this.workers = policies.hedgeWorkers();
    this.caller = Thread.currentThread();
  }

  /**
   * Runs one hedged group and waits for it. Its attempts read the call's arguments from {@code
   * attempt} on their threads while this thread waits, and this thread returns only once every one
   * has ended.
   *
   * @return the deciding attempt's result
   * @throws Throwable the deciding failure, or the last failure with the others attached; {@link
   *     dev.brace.runtime.internal.policy.CallerInterrupted} when the caller was interrupted while
   *     waiting (every attempt stopped, its interrupt flag set again)
   */
  static <T> T run(CallPolicies policies, CallKeys keys, DelegateCall attempt) throws Throwable {
    return run(policies, keys, attempt, new AttemptState());
  }

  /** As {@link #run(CallPolicies, CallKeys, DelegateCall)}, each attempt passing on the bound of the call's own attempt's state. */
  static <T> T run(CallPolicies policies, CallKeys keys, DelegateCall attempt, AttemptState callTicket) throws Throwable {
    SyncHedgeGroup<T> group = new SyncHedgeGroup<>(policies, keys, attempt, callTicket);
    group.start();
    try {
      return group.decision.get();
    } catch (ExecutionException ended) {
      throw ended.getCause();
    } catch (InterruptedException interrupted) {
      group.cancel();
      Thread.currentThread().interrupt();
      throw HedgePolicy.interruptedWhileWaiting(policies.callName(), interrupted);
    } finally {
      group.awaitEnded();
    }
  }

  @Override
  Attempt create(int number) {
    return new Worker(number);
  }

  @Override
  void decided(T value, Throwable failure) {
    if (failure == null) {
      decision.complete(value);
    } else {
      decision.completeExceptionally(failure);
    }
  }

  /**
   * One attempt on its thread. Exactly one of the worker ({@link #settle}) and a stop ({@link
   * #stop}) wins; when the stop wins, the worker waits until the interrupt has been delivered and
   * then clears it, so it can never land after the attempt ended, on a thread that went back to
   * its pool.
   */
  private final class Worker extends AtomicInteger implements Attempt, Runnable {
    private static final long serialVersionUID = 1L;
    private static final int NEW = 0;
    private static final int RUNNING = 1;
    private static final int INTERRUPTING = 2;
    private static final int INTERRUPTED = 3;
    private static final int SETTLED = 4;
    private static final int SETTLED_AFTER_STOP = 5;
    private static final int STOPPED_BEFORE_START = 6;

    private final int number;
    private volatile Thread thread;
    /** Only on the caller's thread (no worker was free) can an interrupt predate the attempt. */
    private boolean interruptedBefore;

    Worker(int number) {
      this.number = number;
    }

    @Override
    public void begin() {
      try {
        workers.execute(this);
      } catch (RejectedExecutionException noThread) {
        if (number == 1) {
          run();
        } else {
          notAdmitted(number, noThread);
          ended(number);
        }
      } catch (Throwable cannotStart) {
        // No thread could be made (an Error such as "unable to create native thread"): the
        // attempt fails with it, and an Error decides the call as it would anywhere.
        failed(number, cannotStart);
        ended(number);
      }
    }

    @Override
    public void stop() {
      if (compareAndSet(NEW, STOPPED_BEFORE_START)) {
        return;
      }
      if (compareAndSet(RUNNING, INTERRUPTING)) {
        thread.interrupt();
        set(INTERRUPTED);
      }
    }

    @Override
    public void run() {
      thread = Thread.currentThread();
      interruptedBefore = thread.isInterrupted();
      CallContext.Scope restored = null;
      try {
        if (compareAndSet(NEW, RUNNING)) {
          // On the caller's own thread (no worker was free) its context is already there.
          restored = thread == caller ? null : context.restore();
          attemptOnce();
        }
      } catch (Throwable unexpected) {
        // A step threw where none should (a backend recording an outcome, or a context library
        // installing the caller's context): the attempt fails with it rather than leaving its
        // group waiting for an outcome that never comes.
        settle();
        failed(number, unexpected);
      } finally {
        try {
          if (restored != null) {
            // Before the attempt counts as ended: the caller returns only once the worker holds
            // nothing of its context.
            restored.close();
          }
        } finally {
          ended(number);
        }
      }
    }

    @SuppressWarnings("unchecked")
    private void attemptOnce() {
      AttemptState state = callTicket.sibling(keys);
      try {
        pipeline.admitBlocking(state);
      } catch (Throwable refused) {
        settle();
        notAdmitted(number, refused);
        return;
      }
      if (!admitted(number)) {
        settle();
        pipeline.abandon(state);
        return;
      }
      T result = null;
      Throwable failure = null;
      try {
        result = (T) pipeline.bounds().invoke(state, attempt);
      } catch (Throwable thrown) {
        failure = thrown;
      }
      if (settle()) {
        // Stopped because another attempt decided: what it ended with is most likely the stop's
        // own doing, not an outcome of the dependency. A result that made it back still counts.
        if (failure == null) {
          recordSuccess(state, result);
        } else {
          pipeline.abandon(state);
        }
        return;
      }
      if (failure != null) {
        pipeline.failed(state, failure);
        failed(number, failure);
      } else if (recordSuccess(state, result)) {
        succeeded(number, result);
      }
    }

    /** @return false when the breaker's result predicate threw: the attempt then failed with that */
    private boolean recordSuccess(AttemptState state, T result) {
      try {
        pipeline.succeeded(state, result);
        return true;
      } catch (Throwable predicateFailure) {
        failed(number, predicateFailure);
        return false;
      }
    }

    /**
     * Ends the part of the attempt a stop may interrupt; from here on no interrupt of this group
     * reaches the thread. Idempotent.
     *
     * @return true when the attempt was stopped; the stop's interrupt is then cleared
     */
    private boolean settle() {
      if (compareAndSet(RUNNING, SETTLED) || get() == SETTLED) {
        return false;
      }
      if (get() == SETTLED_AFTER_STOP) {
        return true;
      }
      while (get() != INTERRUPTED) {
        Thread.onSpinWait();
      }
      Thread.interrupted();
      if (interruptedBefore) {
        thread.interrupt();
      }
      set(SETTLED_AFTER_STOP);
      return true;
    }
  }
}
