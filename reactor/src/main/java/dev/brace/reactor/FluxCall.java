package dev.brace.reactor;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.spi.driver.Admission;
import dev.brace.runtime.spi.driver.CallExecution;
import dev.brace.runtime.spi.driver.CallerScope;
import dev.brace.runtime.spi.driver.ResolvedCall;
import dev.brace.runtime.support.Arguments;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * One subscription of a wrapper's {@code Flux}: one call, walked through the call's steps without
 * blocking a thread, and the subscription its subscriber holds. A driver over the runtime's driver
 * SPI: the call is a {@link CallExecution}, which decides everything; this only moves it on as
 * Reactive Streams signals and scheduler tasks.
 *
 * <p>Each attempt is admitted by the execution (an {@link Admission.Wait} is a task on the
 * registry's scheduler) and holds what it took from the
 * subscription to the delegate's {@code Flux} to its terminal signal, which is the attempt's
 * outcome, or to the subscriber's cancel, which gives everything back without one. Two rules make
 * a stream an attempt: the timeout bounds the time to the first element, and once an element has
 * been passed on it cannot be taken back, so a failure after it ends the call as it is (counted by
 * the breaker) — the retry and the fallback answer only failures before the first element. The
 * retry's decisions, the fallback's and every event are the execution's, as for every other form
 * of call.
 *
 * <p>Threads: the first steps run on the subscriber's thread; a wait, a backoff and the deadline
 * run on the scheduler's, and an attempt's outcome on whichever thread the delegate's {@code Flux}
 * signals on — each in the caller's context, captured at subscription. The subscriber's Reactor
 * {@code Context} reaches every subscription made here unchanged.
 *
 * <p>What is in flight (the phase, the pending task, the current subscription, the demand so far)
 * is guarded by {@link #lock}, held only to read and write it and to hand a task to the scheduler,
 * never across a call out. Exactly one of an attempt's terminal signal, its deadline and the
 * subscriber's cancel ends it: whoever moves the phase on first owns the attempt's outcome.
 *
 * @param <T> the element type
 */
final class FluxCall<T> implements Subscription {
  private enum Phase {
    /** Before the first attempt, and between attempts: the execution holds nothing. */
    BETWEEN,
    /** The execution is admitting the attempt on some thread: that step owns what it takes. */
    ADMITTING,
    /** Admission asked to wait; a task resumes it. The execution holds what was taken so far. */
    WAITING,
    /** Admitted and subscribed (or subscribing) to the delegate; no element yet. */
    RUNNING,
    /** An element has been passed on: no retry, no fallback, no deadline any more. */
    STREAMING,
    /** Subscribed to the fallback's answer; nothing held. */
    ANSWERING,
    /** Ended: by a terminal signal passed on, or by the subscriber's cancel. */
    DONE
  }

  private final CoreSubscriber<? super T> actual;
  private final ResolvedCall resolved;
  private final Object target;
  private final Arguments arguments;
  private final FallbackAnswers answers;
  private final ReentrantLock lock = new ReentrantLock();
  /** The subscriber's thread while the first steps run there: they need no context restored. */
  private volatile Thread starting;

  /** The call, once begun; written before any step that reads it is scheduled or subscribed. */
  private CallExecution execution;

  // Guarded by the lock.
  private Phase phase = Phase.BETWEEN;
  /** A wait for admission, a backoff or the attempt's deadline. */
  private ScheduledFuture<?> waiting;
  private FluxAttempt<T> current;
  private long requested;

  /** Once the current subscription can no longer change: demand goes straight to it. */
  private volatile FluxAttempt<T> settled;

  FluxCall(CoreSubscriber<? super T> actual, ResolvedCall resolved, Object target, Arguments arguments, FallbackAnswers answers) {
    this.actual = actual;
    this.resolved = resolved;
    this.target = target;
    this.arguments = arguments;
    this.answers = answers;
  }

  /** Hands the subscriber its subscription and makes the first attempt. */
  void start() {
    starting = Thread.currentThread();
    try {
      actual.onSubscribe(this);
      if (isOver()) {
        return;
      }
      try {
        execution = resolved.begin(arguments);
      } catch (RuntimeException badKey) {
        // A null key part is the caller's mistake: it ends the call at once, never retried.
        failWith(badKey);
        return;
      }
      attempt();
    } catch (RuntimeException | Error unexpected) {
      failWith(unexpected);
    } finally {
      starting = null;
    }
  }

  Context context() {
    return actual.currentContext();
  }

  /** @return what the delegate's method returns for one attempt: the attempt's publisher */
  Object invokeDelegate() throws Throwable {
    return resolved.invoke(target, arguments);
  }

  String callName() {
    return resolved.callName();
  }

  /** @return {@code step}, to run on another thread in the caller's context */
  Runnable inCallersContext(Runnable step) {
    return execution.inCallersContext(step);
  }

  // ---- the subscriber's side ----

  @Override
  public void request(long n) {
    if (!Operators.validate(n)) {
      return;
    }
    FluxAttempt<T> direct = settled;
    if (direct != null) {
      direct.request(n);
      return;
    }
    FluxAttempt<T> to;
    lock.lock();
    try {
      requested = Operators.addCap(requested, n);
      to = current;
    } finally {
      lock.unlock();
    }
    // An attempt subscribed after this gets the whole demand so far, this included; one that
    // came before gets this part now: each request reaches the current subscription once.
    if (to != null) {
      to.request(n);
    }
  }

  /** The subscriber gave up: every wait is stopped, the subscription cancelled, everything held given back. */
  @Override
  public void cancel() {
    Phase was;
    ScheduledFuture<?> pending;
    FluxAttempt<T> inner;
    lock.lock();
    try {
      if (phase == Phase.DONE) {
        return;
      }
      was = phase;
      phase = Phase.DONE;
      pending = waiting;
      waiting = null;
      inner = current;
    } finally {
      lock.unlock();
    }
    if (pending != null) {
      pending.cancel(false);
    }
    if (inner != null) {
      inner.cancel();
    }
    // While admitting, the admitting step gives back what it took when it sees the cancel.
    if (was == Phase.WAITING || was == Phase.RUNNING || was == Phase.STREAMING) {
      execution.abandon();
    }
  }

  // ---- admission ----

  private void attempt() {
    execution.startAttempt();
    admit();
  }

  private void admit() {
    lock.lock();
    try {
      if (phase == Phase.DONE) {
        return;
      }
      phase = Phase.ADMITTING;
      waiting = null;
    } finally {
      lock.unlock();
    }
    Admission admission;
    try {
      admission = execution.admit();
    } catch (Error fatal) {
      // The execution gave back what it had taken; an Error leaves at once, as everywhere.
      failWith(fatal);
      return;
    }
    if (admission instanceof Admission.Admitted) {
      subscribeAttempt();
    } else if (admission instanceof Admission.Wait wait) {
      later(this::admit, wait.nanos(), Phase.WAITING);
    } else {
      moveTo(Phase.BETWEEN);
      afterFailure(((Admission.Refused) admission).refusal());
    }
  }

  /**
   * Schedules a step in the caller's context, unless the call is over; {@code phase} is the
   * phase while it waits. A wait for admission whose call is over, or whose task the scheduler
   * refuses, gives back what it holds; the refusal then ends the attempt as refused.
   */
  private void later(Runnable step, long delayNanos, Phase whileWaiting) {
    RuntimeException rejected = null;
    lock.lock();
    try {
      if (phase != Phase.DONE) {
        try {
          waiting = execution.scheduler().schedule(execution.inCallersContext(step), delayNanos, TimeUnit.NANOSECONDS);
          phase = whileWaiting;
          return;
        } catch (RuntimeException schedulerFailure) {
          rejected = schedulerFailure;
          phase = Phase.BETWEEN;
        }
      }
    } finally {
      lock.unlock();
    }
    if (whileWaiting == Phase.WAITING) {
      execution.abandon();
    }
    if (rejected != null) {
      afterFailure(rejected);
    }
  }

  // ---- the attempt ----

  private void subscribeAttempt() {
    FluxAttempt<T> inner = new FluxAttempt<>(this, null);
    long demand;
    RuntimeException rejected = null;
    lock.lock();
    try {
      if (phase == Phase.DONE) {
        // Cancelled while admitting: the cancel left what was taken to this step.
        demand = -1;
      } else {
        demand = requested;
        // The attempt's bound, its timeout or what is left of the caller's deadline, to the first element.
        long bound = execution.attemptBoundNanos();
        if (bound >= 0) {
          try {
            waiting = execution.scheduler().schedule(
                execution.inCallersContext(() -> expired(inner)), bound, TimeUnit.NANOSECONDS);
          } catch (RuntimeException schedulerFailure) {
            rejected = schedulerFailure;
          }
        }
        phase = rejected == null ? Phase.RUNNING : Phase.BETWEEN;
        if (rejected == null) {
          current = inner;
        }
      }
    } finally {
      lock.unlock();
    }
    if (demand < 0 || rejected != null) {
      execution.abandon();
      if (rejected != null) {
        afterFailure(rejected);
      }
      return;
    }
    if (demand > 0) {
      inner.request(demand);
    }
    Object launched;
    try {
      // Through the execution, which makes the attempt's bound the current deadline while the
      // delegate's method runs (for the calls it makes) and injects the faults set for the call.
      launched = execution.launch(inner);
    } catch (Throwable thrown) {
      attemptFailed(inner, thrown);
      return;
    }
    if (launched instanceof CompletionStage) {
      inner.follow(((CompletionStage<?>) launched).toCompletableFuture());
    } else {
      inner.subscribeTo(launched);
    }
  }

  /** The attempt's timeout passed before its first element. */
  private void expired(FluxAttempt<T> inner) {
    lock.lock();
    try {
      if (phase != Phase.RUNNING || current != inner) {
        return;
      }
      phase = Phase.BETWEEN;
      waiting = null;
    } finally {
      lock.unlock();
    }
    inner.cancel();
    afterFailure(execution.timedOut());
  }

  /** An element of attempt {@code inner}; the first one settles the call on it. */
  void next(FluxAttempt<T> inner, T element) {
    if (!inner.emitted) {
      ScheduledFuture<?> deadline;
      lock.lock();
      try {
        if (phase != Phase.RUNNING || current != inner) {
          // The attempt was timed out or cancelled: what it still sends is dropped.
          deadline = null;
          inner = null;
        } else {
          phase = Phase.STREAMING;
          deadline = waiting;
          waiting = null;
          settled = inner;
        }
      } finally {
        lock.unlock();
      }
      if (inner == null) {
        Operators.onDiscard(element, actual.currentContext());
        return;
      }
      if (deadline != null) {
        deadline.cancel(false);
      }
      inner.emitted = true;
    }
    actual.onNext(element);
  }

  void attemptFailed(FluxAttempt<T> inner, Throwable failure) {
    Phase was = claim(inner);
    if (was == null) {
      return;
    }
    CallerScope restored = restoreContext();
    try {
      failure = execution.failed(failure);
      if (was == Phase.STREAMING) {
        // Elements are out: the failure ends the call as it is, with the earlier attempts' attached.
        execution.ended(failure);
        if (terminate()) {
          actual.onError(failure);
        }
      } else {
        afterFailure(failure);
      }
    } catch (RuntimeException | Error unexpected) {
      failWith(unexpected);
    } finally {
      close(restored);
    }
  }

  void attemptCompleted(FluxAttempt<T> inner) {
    Phase was = claim(inner);
    if (was == null) {
      return;
    }
    CallerScope restored = restoreContext();
    try {
      try {
        execution.succeeded(null);
      } catch (RuntimeException predicateFailure) {
        // The breaker's result predicate threw: as for every form, the attempt failed with it.
        if (was == Phase.STREAMING) {
          failWith(predicateFailure);
        } else {
          afterFailure(predicateFailure);
        }
        return;
      }
      execution.ended(null);
      if (terminate()) {
        actual.onComplete();
      }
    } catch (RuntimeException | Error unexpected) {
      failWith(unexpected);
    } finally {
      close(restored);
    }
  }

  /** @return the phase attempt {@code inner} ended in, now its owner's; null when it was already over */
  private Phase claim(FluxAttempt<T> inner) {
    ScheduledFuture<?> deadline;
    Phase was;
    lock.lock();
    try {
      was = phase;
      if ((was != Phase.RUNNING && was != Phase.STREAMING) || current != inner) {
        return null;
      }
      phase = Phase.BETWEEN;
      deadline = waiting;
      waiting = null;
    } finally {
      lock.unlock();
    }
    if (deadline != null) {
      deadline.cancel(false);
    }
    return was;
  }

  // ---- between attempts, and the end ----

  private void afterFailure(Throwable failure) {
    if (isOver()) {
      // Cancelled meanwhile: no decision to make, nobody to tell.
      return;
    }
    long delay = execution.retryDelay(failure);
    if (delay == CallExecution.NO_RETRY) {
      finish(failure);
      return;
    }
    if (delay <= 0) {
      attempt();
    } else {
      later(this::attempt, delay, Phase.BETWEEN);
    }
  }

  /** Ends the call with a failure, handed to the fallback when that answers it. */
  private void finish(Throwable failure) {
    execution.ended(failure);
    Throwable answered = execution.fallbackAnswering(failure);
    if (answered == null) {
      failWith(failure);
      return;
    }
    Publisher<T> answer;
    try {
      answer = answers.answer(execution.callFallback(target, arguments, answered), resolved.callName());
    } catch (Throwable fallbackFailure) {
      failWith(execution.fallbackFailed(ExceptionFilter.unwrap(fallbackFailure), failure));
      return;
    }
    FluxAttempt<T> fallback = new FluxAttempt<>(this, failure);
    long demand;
    lock.lock();
    try {
      if (phase == Phase.DONE) {
        return;
      }
      phase = Phase.ANSWERING;
      current = fallback;
      settled = fallback;
      demand = requested;
    } finally {
      lock.unlock();
    }
    if (demand > 0) {
      fallback.request(demand);
    }
    answer.subscribe(fallback);
  }

  void answerNext(T element) {
    actual.onNext(element);
  }

  void answerFailed(Throwable fallbackFailure, Throwable original) {
    failWith(execution.fallbackFailed(fallbackFailure, original));
  }

  void answerCompleted() {
    if (terminate()) {
      actual.onComplete();
    }
  }

  // ---- the phase ----

  private boolean isOver() {
    lock.lock();
    try {
      return phase == Phase.DONE;
    } finally {
      lock.unlock();
    }
  }

  private void moveTo(Phase next) {
    lock.lock();
    try {
      if (phase != Phase.DONE) {
        phase = next;
      }
    } finally {
      lock.unlock();
    }
  }

  /** @return whether this ended the call (not already ended or cancelled); a pending task is cancelled */
  private boolean terminate() {
    ScheduledFuture<?> pending;
    lock.lock();
    try {
      if (phase == Phase.DONE) {
        return false;
      }
      phase = Phase.DONE;
      pending = waiting;
      waiting = null;
    } finally {
      lock.unlock();
    }
    if (pending != null) {
      pending.cancel(false);
    }
    return true;
  }

  private void failWith(Throwable failure) {
    if (terminate()) {
      actual.onError(failure);
    }
  }

  /** @return the caller's context installed on this thread, or null on the subscriber's thread while it starts the call */
  private CallerScope restoreContext() {
    return Thread.currentThread() == starting ? null : execution.enterCallersContext();
  }

  private static void close(CallerScope restored) {
    if (restored != null) {
      restored.close();
    }
  }
}
