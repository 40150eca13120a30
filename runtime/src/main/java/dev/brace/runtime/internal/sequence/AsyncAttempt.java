package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.attempt.Admission;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One attempt of an asynchronous call, walked through its {@link AttemptPipeline} without blocking
 * a thread: a wait the pipeline asks for is a task on the scheduler, the timeout's deadline is
 * another, and the outcome is recorded when the delegate's future completes. Exactly one of the
 * future, the deadline and a {@link #stop} ends the attempt; whoever does hands the attempt's state back to
 * the pipeline once and tells the {@link Listener}.
 *
 * <p>Lock-free: whoever ends the attempt sets {@link #OVER} in {@link #state} by compare-and-set,
 * so exactly one end wins, and nothing waits for another thread. A step that publishes what it
 * started (a scheduled task, the delegate's future) writes it first and reads the state after; an
 * end sets the state first and reads what was published after. So at least one of them sees the
 *  other, and cancels what the end would have missed. While the pipeline admits (which touches the
 * attempt's state) the attempt is {@link #ADMITTING}: a stop then only marks it over, and the admitting step
 * gives the attempt's state back when it returns.
 *
 * @param <T> the delegate's value type
 */
final class AsyncAttempt<T> {
  /** What the attempt tells the call it belongs to. Called once, on whatever thread ends it. */
  interface Listener<T> {
    /** @return whether the delegate may still be called now that the attempt is admitted (a hedge's group may be over) */
    default boolean mayCall() {
      return true;
    }

    /** It never reached the delegate: refused by the call's own breaker, limiter or bulkhead, or no task could be scheduled. */
    void refused(Throwable refusal);

    /** It returned {@code value}, which the breaker has recorded. */
    void succeeded(T value);

    /** It reached the delegate and failed (a timeout, or the breaker's result predicate throwing, included). */
    void failed(Throwable failure);

    /** It was stopped ({@link AsyncAttempt#stop}) before any other end: nothing to judge. */
    default void stopped() {}
  }

  private final CallFrame frame;
  private final AttemptPipeline pipeline;
  private final AttemptState attemptState;
  private final AsyncContext context;
  private final Listener<T> listener;
  /** {@link #OVER} once ended (for good), with {@link #ADMITTING} while the pipeline admits. */
  private volatile int state;
  /**
   * The task of the latest step scheduled: a wait the pipeline asked for or, once the delegate is
   * called, the timeout's deadline. An end cancels it; a task that already ran is left here.
   */
  private volatile ScheduledFuture<?> waiting;
  private volatile CompletableFuture<?> inner;

  private static final int ADMITTING = 1;
  private static final int OVER = 2;
  private static final VarHandle STATE;
  private static final VarHandle WAITING;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(AsyncAttempt.class, "state", int.class);
      WAITING = lookup.findVarHandle(AsyncAttempt.class, "waiting", ScheduledFuture.class);
    } catch (ReflectiveOperationException missingField) {
      throw new ExceptionInInitializerError(missingField);
    }
  }

  /**
   * @param frame the call's delegate and arguments, its own (detached)
   * @param attemptState the attempt's state, started; it may come from admission already under way
   */
  AsyncAttempt(CallFrame frame, AttemptState attemptState, AsyncContext context, Listener<T> listener) {
    this.frame = frame;
    this.pipeline = frame.policies().attempts();
    this.attemptState = attemptState;
    this.context = context;
    this.listener = listener;
  }

  /** Starts the attempt from the beginning of its admission. */
  void begin() {
    admitNow();
  }

  /**
   * Goes on from where the caller's thread left the attempt: with the pipeline's answer to its
   * admission, or, admitted and the delegate already called, with the future it returned.
   *
   * @param admission the pipeline's answer; {@link Admission#ADMITTED} when {@code returned} is given
   * @param returned the delegate's future, or null when the delegate is still to be called
   */
  void resume(Admission admission, CompletableFuture<T> returned) {
    if (returned == null) {
      proceed(admission);
      return;
    }
    if (!armDeadline()) {
      returned.cancel(true);
      return;
    }
    awaitOutcome(returned);
  }

  /** Ends the attempt without an outcome, if it is not over: the caller gave up, or another hedge decided. */
  void stop() {
    int before = end();
    if (before < 0) {
      return;
    }
    cancelWaiting();
    CompletableFuture<?> call = inner;
    if (call != null) {
      call.cancel(true);
    }
    if ((before & ADMITTING) == 0) {
      pipeline.abandon(attemptState);
    }
    listener.stopped();
  }

  // ---- admission ----

  private void admitNow() {
    // Only this step sets ADMITTING, and clears it before it goes on: anything else is OVER.
    if (!STATE.compareAndSet(this, 0, ADMITTING)) {
      return;
    }
    Admission admission;
    try {
      admission = pipeline.admit(attemptState);
    } catch (Error fatal) {
      // The pipeline gave back what it had taken.
      doneAdmitting();
      throw fatal;
    }
    if (doneAdmitting()) {
      // Stopped while admitting: the stop left the attempt's state to this step.
      pipeline.abandon(attemptState);
      return;
    }
    proceed(admission);
  }

  /** @return whether the attempt was stopped meanwhile (it then stays marked as admitting, and over) */
  private boolean doneAdmitting() {
    return !STATE.compareAndSet(this, ADMITTING, 0);
  }

  private void proceed(Admission admission) {
    switch (admission) {
      case ADMITTED:
        callDelegate();
        return;
      case WAIT:
        later(this::admitNow, attemptState.waitNanos());
        return;
      default:
        if (claim()) {
          listener.refused(ExceptionFilter.unwrap(attemptState.refusal()));
        }
    }
  }

  /**
   * Schedules the attempt's next step, unless it is over.
   *
   * @return false when it was over, or the scheduler refused the task (which then ends the attempt
   *     as refused); whatever the attempt holds is given back then. True once the task is handed
   *     over, even if the attempt ended meanwhile: the steps that follow look again, as they would
   *     had the end come just after
   */
  private boolean later(Runnable step, long delayNanos) {
    if (isOver()) {
      return false;
    }
    ScheduledFuture<?> before = waiting;
    ScheduledFuture<?> task;
    try {
      task = frame.policies().scheduler().schedule(context.wrap(step), delayNanos, TimeUnit.NANOSECONDS);
    } catch (RuntimeException | Error schedulerFailure) {
      // Nothing admits here, so the attempt's state is this step's to give back, unless a stop ended it first.
      if (end() >= 0) {
        pipeline.abandon(attemptState);
        listener.refused(schedulerFailure);
      }
      return false;
    }
    // The task may already have run and scheduled a step of its own: that one is the latest.
    WAITING.compareAndSet(this, before, task);
    if (isOver()) {
      // Ended as the task was handed over: an end that looked before it was published missed it.
      task.cancel(false);
    }
    return true;
  }

  // ---- the call ----

  private void callDelegate() {
    if (isOver()) {
      return;
    }
    if (!listener.mayCall()) {
      stop();
      return;
    }
    if (!armDeadline()) {
      return;
    }
    CompletableFuture<T> returned;
    try {
      returned = futureOf(pipeline.bounds().launch(attemptState, frame), frame.policies().callName());
    } catch (Throwable thrown) {
      settle(null, thrown);
      return;
    }
    awaitOutcome(returned);
  }

  /**
   * Arms the attempt's bound (its timeout, or what is left of the caller's deadline), if it has one.
   *
   * @return false when the attempt is over, or the scheduler refused the deadline (the attempt then ended)
   */
  private boolean armDeadline() {
    long nanos = pipeline.bounds().attemptNanos(attemptState);
    // A stop gives the attempt's state back, which then reports no bound: unbounded or not, an attempt
    // stopped since its admission goes no further.
    return nanos < 0 ? !isOver() : later(this::expired, nanos);
  }

  /** Settles the attempt when the delegate's future completes, wherever that happens. */
  private void awaitOutcome(CompletableFuture<T> returned) {
    inner = returned;
    if (isOver()) {
      // Timed out or stopped before the delegate even returned its future.
      returned.cancel(true);
      return;
    }
    returned.whenComplete((value, failure) -> context.wrap(() -> settle(value, failure)).run());
  }

  private void expired() {
    // Claimed first, so the inner future's cancellation below is not taken for its outcome.
    if (!claim()) {
      return;
    }
    CompletableFuture<?> call = inner;
    if (call != null) {
      call.cancel(true);
    }
    record(null, pipeline.bounds().timedOut(attemptState));
  }

  /** The delegate's future completed (or the delegate threw before returning one). */
  private void settle(T value, Throwable failure) {
    if (claim()) {
      record(value, failure == null ? null : ExceptionFilter.unwrap(failure));
    }
  }

  private boolean isOver() {
    return (state & OVER) != 0;
  }

  /** @return whether this step ends the attempt: it was not over, and a pending wait is cancelled */
  private boolean claim() {
    if (end() < 0) {
      return false;
    }
    cancelWaiting();
    return true;
  }

  /** Marks the attempt over: @return the state before, or -1 when it was over already */
  private int end() {
    int before;
    do {
      before = state;
      if ((before & OVER) != 0) {
        return -1;
      }
    } while (!STATE.compareAndSet(this, before, before | OVER));
    return before;
  }

  private void cancelWaiting() {
    ScheduledFuture<?> pending = waiting;
    if (pending != null) {
      pending.cancel(false);
    }
  }

  /** The breaker records the outcome and the permit is returned; then the listener hears it. */
  private void record(T value, Throwable failure) {
    if (failure != null) {
      listener.failed(pipeline.failed(attemptState, failure));
      return;
    }
    try {
      pipeline.succeeded(attemptState, value);
    } catch (Throwable predicateFailure) {
      // The breaker's result predicate threw: as on the sync path, the attempt failed with it.
      listener.failed(predicateFailure);
      return;
    }
    listener.succeeded(value);
  }

  /**
   * @return the stage as a future, the same one when it is a {@code CompletableFuture}
   * @throws NullPointerException naming the call when there is no future
   */
  @SuppressWarnings("unchecked")
  static <T> CompletableFuture<T> futureOf(Object stage, String source) {
    if (stage == null) {
      throw new NullPointerException(source + " returned null instead of a future");
    }
    CompletionStage<T> given = (CompletionStage<T>) stage;
    try {
      return given.toCompletableFuture();
    } catch (UnsupportedOperationException noConversion) {
      CompletableFuture<T> copy = new CompletableFuture<>();
      given.whenComplete((value, failure) -> {
        if (failure == null) {
          copy.complete(value);
        } else {
          copy.completeExceptionally(failure);
        }
      });
      return copy;
    }
  }
}
