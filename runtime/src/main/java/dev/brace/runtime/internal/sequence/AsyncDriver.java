package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.attempt.Admission;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.SettledValue;
import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.policy.StaleAnswers;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.StageAdapter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The asynchronous driver: one call's walk through fallback, remembered results, retry and its
 * attempts, asking the same steps as the synchronous driver ({@link CallFallback}, {@link
 * CallStaleAnswers}, {@link CallRetry}) in their asynchronous shapes, with no decision of its own. Nothing
 * here waits on a thread: a backoff is a task on the registry's scheduler, each attempt an {@link
 * AsyncAttempt} (or, hedged, an {@link AsyncHedgeGroup} of them), and what follows an attempt runs
 * when it ends.
 *
 * <p>The common case costs no driver at all: when the first attempt is admitted at once (no hedge,
 * no timeout to arm, nothing remembered) and the delegate's future is already complete with a
 * result no retry asks to repeat, {@link #call} records the outcome and returns that future on the
 * caller's thread (a copy when it is not a plain {@code CompletableFuture}), with no frame when the
 * attempt was admitted without waiting. Anything else makes a driver, which takes over the attempt where the caller's thread left
 * it ({@link AsyncAttempt#resume}).
 *
 * <p>Threads: the first attempt starts on the caller's thread; later steps run on the scheduler's
 * thread or on whichever thread completes a future, in the caller's context ({@link AsyncContext}).
 * A delegate that blocks before returning its future blocks that thread, as it would without Brace.
 *
 * <p>One instance per call. Its steps never run concurrently with each other, but the caller may
 * cancel the returned future at any moment: what is in flight is guarded by {@link #lock}, held only
 * to read and write it and to hand a task to the scheduler, never across a call out.
 *
 * @param <T> the future's value type
 */
public final class AsyncDriver<T>
    implements AsyncAttempt.Listener<T>, AsyncHedgeGroup.Decision<T>, CallStaleAnswers.AsyncCall {
  private final CallPolicies callPolicies;
  private final CallFrame frame;
  private final CallKeys keys;
  private final AsyncContext context;
  private final CompletableFuture<T> returned = new CallFuture<>(this::stopInFlight);
  private final ReentrantLock lock = new ReentrantLock();
  /** From {@link CallPolicies#begin}; set before the first attempt. */
  private long started;
  private RetryRun run;
  /** The attempt in flight, from 1; attempts follow one another, never overlap. */
  private int number;
  /** Stops what is in flight (an attempt, a backoff, a hedged group or the fallback) when the caller gives up. */
  private Runnable inFlight;
  /** With {@code @StaleIfError}: the key results are remembered under, and the flight this call leads. */
  private Object staleKey;
  private StaleAnswers.Flight flight;

  private AsyncDriver(CallFrame frame, CallKeys keys, long started) {
    this.callPolicies = frame.policies();
    this.frame = frame;
    this.keys = keys;
    this.started = started;
    this.context = AsyncContext.ofCaller();
  }

  /**
   * Runs a call through every step of its policies without blocking a thread.
   *
   * @param callPolicies the call's policies
   * @param target the delegate
   * @return the call's future; never null, nothing thrown
   */
  public static <T> CompletableFuture<T> call(
      CallPolicies callPolicies, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    return call(callPolicies, null, target, a, b, c, d, x, y);
  }

  /**
   * Runs a call whose delegate returns something other than a {@code CompletionStage} (a Reactor
   * {@code Mono}) through every step of its policies without blocking a thread.
   *
   * @param callPolicies the call's policies
   * @param adapter turns each attempt's return value and the fallback's answer into a stage; null
   *     when they are stages already
   * @param target the delegate
   * @return the call's future; never null, nothing thrown
   */
  public static <T> CompletableFuture<T> call(
      CallPolicies callPolicies, StageAdapter adapter, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    if (adapter == null && callPolicies.callsWithoutWaiting()) {
      return withoutWaiting(callPolicies, target, a, b, c, d, x, y);
    }
    CallFrame frame = CallFrame.enter(callPolicies, target, a, b, c, d, x, y).adapt(adapter);
    try {
      return call(frame, false, 0L, null);
    } finally {
      frame.exit();
    }
  }

  /** A stage's value if it completed with one: what an attempt made without waiting records. */
  private static final SettledValue SETTLED = (returned, callName) -> {
    CompletableFuture<?> future = AsyncAttempt.futureOf(returned, callName);
    return future.isDone() && !future.isCompletedExceptionally() ? future.join() : SettledValue.IN_FLIGHT;
  };

  /**
   * The first attempt made without waiting, with no frame, when its delegate's stage is complete already;
   * otherwise a frame is borrowed and the call goes on where the attempt stopped, as below.
   */
  @SuppressWarnings("unchecked")
  private static <T> CompletableFuture<T> withoutWaiting(
      CallPolicies callPolicies, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    long started = callPolicies.begin();
    Object outcome = callPolicies.attemptWithoutWaiting(target, a, b, c, d, x, y, started, SETTLED);
    if (outcome != AttemptPipeline.NOT_NOW && !(outcome instanceof AttemptState)) {
      return settledAnswer(AsyncAttempt.futureOf(outcome, callPolicies.callName()));
    }
    CallFrame frame = CallFrame.enter(callPolicies, target, a, b, c, d, x, y);
    try {
      return call(frame, true, started, outcome instanceof AttemptState left ? left : null);
    } finally {
      frame.exit();
    }
  }

  /**
   * What a call whose delegate's future has already completed with its answer returns: that very
   * future when it is a plain {@code CompletableFuture}, so the call allocates nothing (completed,
   * it can no longer be completed or cancelled; only {@code obtrudeValue} could change it, as it
   * could the delegate's); otherwise a plain copy, which no subclass's behaviour follows.
   */
  private static <T> CompletableFuture<T> settledAnswer(CompletableFuture<T> settled) {
    return settled.getClass() == CompletableFuture.class ? settled : CompletableFuture.completedFuture(settled.join());
  }

  /**
   * @param begun whether the call has begun already ({@code startedAlready} is its start)
   * @param left the attempt's state the first attempt, made without waiting, left; null to make it here
   */
  private static <T> CompletableFuture<T> call(CallFrame frame, boolean begun, long startedAlready, AttemptState left) {
    CallPolicies callPolicies = frame.policies();
    if (callPolicies.passesThrough()) {
      return direct(frame);
    }
    CallKeys keys;
    long started;
    try {
      keys = callPolicies.keys(frame.arguments());
      if (callPolicies.remembersAnswers()) {
        // A remembered answer, or another call's flight, may answer it without an attempt: the
        // attempts (and the retry budget's deposit) begin only when neither does.
        return new AsyncDriver<T>(frame.detach(), keys, CallPolicies.UNTIMED).remembered();
      }
      if (begun) {
        started = startedAlready;
        callPolicies.began(frame.attemptState(), started);
      } else {
        started = callPolicies.begin(frame.attemptState());
      }
    } catch (Throwable badKey) {
      // A null key part is the caller's mistake: it fails the call at once, never retried.
      return CompletableFuture.failedFuture(badKey);
    }
    AttemptPipeline pipeline = callPolicies.attempts();
    if (callPolicies.hedged() || pipeline.bounds().bounded(frame.attemptState())) {
      // A hedge runs a group of attempts, and a deadline is a task armed before the delegate is
      // called: never the fast path.
      AsyncDriver<T> driver = new AsyncDriver<>(frame.detach(), keys, started);
      return driver.start(() -> driver.attempt(1));
    }
    AttemptState state = frame.attemptState().start(keys);
    if (left != null) {
      state.takeOver(left);
      if (left.failureRecorded()) {
        AsyncDriver<T> driver = new AsyncDriver<>(frame.detach(), keys, started);
        return driver.start(() -> driver.afterFailure(1, left.failure()));
      }
      if (left.failure() != null || left.pending() != null) {
        CompletableFuture<T> inner = left.failure() != null
            ? CompletableFuture.failedFuture(left.failure())
            : AsyncAttempt.futureOf(left.pending(), callPolicies.callName());
        return new AsyncDriver<T>(frame.detach(), keys, started).handOver(Admission.ADMITTED, inner);
      }
      // Left at a full bulkhead: admission goes on from there.
    }
    Admission admission = pipeline.admit(state);
    if (admission != Admission.ADMITTED) {
      return new AsyncDriver<T>(frame.detach(), keys, started).handOver(admission, null);
    }
    CompletableFuture<T> inner;
    try {
      inner = AsyncAttempt.futureOf(pipeline.bounds().launch(state, frame), callPolicies.callName());
    } catch (Throwable thrown) {
      inner = CompletableFuture.failedFuture(thrown);
    }
    if (!inner.isDone() || inner.isCompletedExceptionally()) {
      return new AsyncDriver<T>(frame.detach(), keys, started).handOver(Admission.ADMITTED, inner);
    }
    T value = inner.join();
    RetryRun retried;
    try {
      pipeline.succeeded(state, value);
      retried = CallRetry.afterResult(callPolicies, null, 1, started, state, value);
    } catch (Throwable predicateFailure) {
      // A result predicate threw: as on the sync path, the attempt failed with what it threw.
      AsyncDriver<T> driver = new AsyncDriver<>(frame.detach(), keys, started);
      return driver.start(() -> driver.afterFailure(1, predicateFailure));
    }
    if (retried == null) {
      return settledAnswer(inner);
    }
    AsyncDriver<T> driver = new AsyncDriver<>(frame.detach(), keys, started);
    return driver.start(() -> driver.retryAfter(retried, 2));
  }

  /** Brace is switched off: the delegate's own future, or its synchronous throw as a failed one. */
  private static <T> CompletableFuture<T> direct(CallFrame frame) {
    try {
      return AsyncAttempt.futureOf(frame.call(), frame.policies().callName());
    } catch (Throwable thrown) {
      return CompletableFuture.failedFuture(thrown);
    }
  }

  /** Attempt 1, which the caller's thread began with the frame's attempt's state, goes on here. */
  private CompletableFuture<T> handOver(Admission admission, CompletableFuture<T> inner) {
    return start(() -> {
      number = 1;
      AsyncAttempt<T> first = new AsyncAttempt<>(frame, frame.attemptState(), context, this);
      if (track(first::stop)) {
        first.resume(admission, inner);
      } else {
        first.stop();
      }
    });
  }

  /** Runs the first steps on the caller's thread; the wrapper never throws. */
  private CompletableFuture<T> start(Runnable first) {
    try {
      first.run();
    } catch (Throwable unexpected) {
      // A bug or a rejected task surfaces through the future.
      returned.completeExceptionally(unexpected);
    } finally {
      context.started();
    }
    return returned;
  }

  // ---- remembered results (@StaleIfError), around the attempts ----

  /** The call remembers its results: a remembered or shared answer may spare it the attempts. */
  private CompletableFuture<T> remembered() {
    return start(() -> {
      staleKey = CallStaleAnswers.keyOf(keys);
      returned.whenComplete((value, failure) -> abandonFlight());
      rememberedOrAttempts();
    });
  }

  private void rememberedOrAttempts() {
    try {
      CallStaleAnswers.callAsync(callPolicies.stale(), staleKey, this);
    } catch (Throwable unexpected) {
      returned.completeExceptionally(unexpected);
    }
  }

  @Override
  public boolean over() {
    return returned.isDone();
  }

  @Override
  public boolean leads(StaleAnswers.Flight led) {
    lock.lock();
    try {
      flight = led;
    } finally {
      lock.unlock();
    }
    if (returned.isDone()) {
      abandonFlight();
      return false;
    }
    return true;
  }

  @Override
  public void follow(CompletableFuture<Object> leader) {
    // The leader may complete on any thread: what follows (maybe this call's own attempts) runs in
    // this caller's context.
    leader.whenComplete((value, failure) -> context.wrap(() -> {
      try {
        CallStaleAnswers.followed(callPolicies.stale(), staleKey, this, value, failure);
      } catch (Throwable unexpected) {
        returned.completeExceptionally(unexpected);
      }
    }).run());
  }

  @Override
  @SuppressWarnings("unchecked")
  public void answered(Object value) {
    returned.complete((T) value);
  }

  @Override
  public void failedWith(Throwable failure) {
    finish(failure);
  }

  @Override
  public void attempts() {
    started = callPolicies.begin(frame.attemptState());
    attempt(1);
  }

  /** @return the flight this call led, now ended by it (null when it led none) */
  private StaleAnswers.Flight endFlight() {
    lock.lock();
    try {
      StaleAnswers.Flight led = flight;
      flight = null;
      return led;
    } finally {
      lock.unlock();
    }
  }

  private void abandonFlight() {
    StaleAnswers.Flight led = endFlight();
    if (led != null) {
      callPolicies.stale().abandon(led);
    }
  }

  /** The call's own result: remembered (and shared with its followers), then the caller's. */
  private void complete(T value) {
    if (staleKey != null) {
      try {
        callPolicies.stale().remember(staleKey, value, endFlight());
      } catch (Throwable unexpected) {
        returned.completeExceptionally(unexpected);
        return;
      }
    }
    returned.complete(value);
  }

  // ---- the attempts ----

  private void attempt(int next) {
    number = next;
    if (callPolicies.hedged()) {
      hedgedAttempts(next);
      return;
    }
    AttemptState state = frame.attemptState().start(keys);
    AsyncAttempt<T> attempt = new AsyncAttempt<>(frame, state, context, this);
    // The caller giving up ends the attempt without an outcome.
    if (track(attempt::stop)) {
      attempt.begin();
    }
  }

  /**
   * With a hedge, a group of attempts takes the place of one: each passes breaker, limiter,
   * bulkhead and timeout on its own, and the group's outcome is what the retry judges.
   */
  private void hedgedAttempts(int next) {
    AsyncHedgeGroup<T> group = AsyncHedgeGroup.of(callPolicies, keys, frame, context, next == 1, this);
    // Stoppable before it starts: an attempt may decide it, and the next step be tracked, at once.
    if (!track(group)) {
      return;
    }
    try {
      group.start();
    } catch (Throwable unexpected) {
      group.cancel();
      afterFailure(next, unexpected);
    }
  }

  /**
   * Runs where the group was decided, which is always in the caller's context: on the caller's
   * thread as the group starts, or in an attempt's outcome or the hedge's timer, which both run in it.
   */
  @Override
  public void groupDecided(T value, Throwable failure) {
    if (failure == null) {
      afterResult(number, value);
    } else {
      afterFailure(number, ExceptionFilter.unwrap(failure));
    }
  }

  @Override
  public void refused(Throwable refusal) {
    afterFailure(number, refusal);
  }

  @Override
  public void succeeded(T value) {
    afterResult(number, value);
  }

  @Override
  public void failed(Throwable failure) {
    afterFailure(number, failure);
  }

  // ---- between attempts: retry, fallback, the caller giving up ----

  private void afterFailure(int attempt, Throwable failure) {
    if (returned.isDone()) {
      return;
    }
    // An end is reported as the failure it is, before a remembered result or the fallback answers
    // it, as the synchronous driver does: brace.stale and brace.fallback count the answers.
    RetryRun next = CallRetry.afterFailure(callPolicies, run, attempt, started, null, failure);
    if (next == null) {
      finish(failure);
      return;
    }
    retryAfter(next, attempt + 1);
  }

  private void afterResult(int attempt, T value) {
    if (!returned.isDone()) {
      RetryRun next;
      try {
        next = CallRetry.afterResult(callPolicies, run, attempt, started, null, value);
      } catch (Throwable predicateFailure) {
        afterFailure(attempt, predicateFailure);
        return;
      }
      if (next != null) {
        retryAfter(next, attempt + 1);
        return;
      }
    }
    complete(value);
  }

  /** Another attempt follows, after the wait the retry asked for in {@code next}. */
  private void retryAfter(RetryRun next, int attempt) {
    run = next;
    retryAfter(attempt, next.waitNanos());
  }

  private void retryAfter(int next, long delayNanos) {
    if (delayNanos <= 0) {
      attempt(next);
      return;
    }
    lock.lock();
    try {
      if (returned.isDone()) {
        return;
      }
      ScheduledFuture<?> backoff =
          callPolicies.scheduler().schedule(context.wrap(() -> attempt(next)), delayNanos, TimeUnit.NANOSECONDS);
      inFlight = () -> backoff.cancel(false);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends the call with a failure: answered from memory when {@code @StaleIfError} has a result for
   * it, else handed to the fallback when that answers it.
   */
  @SuppressWarnings("unchecked")
  private void finish(Throwable failure) {
    if (returned.isDone()) {
      return;
    }
    if (staleKey != null) {
      Object stale;
      try {
        stale = CallStaleAnswers.answerFailure(callPolicies, staleKey, failure, endFlight());
      } catch (Throwable unexpected) {
        returned.completeExceptionally(unexpected);
        return;
      }
      if (stale != StaleAnswers.NONE) {
        returned.complete((T) stale);
        return;
      }
    }
    Throwable answering = CallFallback.answering(callPolicies, failure);
    if (answering == null) {
      returned.completeExceptionally(failure);
      return;
    }
    CompletableFuture<T> answer;
    try {
      answer = CallFallback.answerAsync(frame, answering, failure);
    } catch (Throwable fallbackFailure) {
      returned.completeExceptionally(fallbackFailure);
      return;
    }
    if (!track(() -> answer.cancel(true))) {
      answer.cancel(true);
      return;
    }
    answer.whenComplete((value, fallbackFailure) -> context.wrap(() -> {
      if (fallbackFailure == null) {
        returned.complete(value);
      } else {
        returned.completeExceptionally(CallFallback.failedAnswer(fallbackFailure, failure));
      }
    }).run());
  }

  /**
   * Registers what stops the step now in flight.
   *
   * @return false when the caller has already given up; the step must then undo itself
   */
  private boolean track(Runnable stop) {
    lock.lock();
    try {
      if (returned.isDone()) {
        return false;
      }
      inFlight = stop;
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void stopInFlight() {
    Runnable stop;
    lock.lock();
    try {
      stop = inFlight;
      inFlight = null;
    } finally {
      lock.unlock();
    }
    if (stop != null) {
      stop.run();
    }
  }
}
