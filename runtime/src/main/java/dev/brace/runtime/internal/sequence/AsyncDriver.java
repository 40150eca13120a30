package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.AsyncAttempt;
import dev.brace.runtime.support.AsyncFallback;
import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.StaleAnswers;
import dev.brace.runtime.internal.policy.TimeoutPolicy;

import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The asynchronous driver: one call's walk through fallback, retry, breaker, limiter, bulkhead,
 * timeout and the delegate, with the same policies as the synchronous driver and no decision of
 * its own. Nothing here waits on a thread: a backoff, a token that is still to come and a
 * bulkhead permit that may come free are tasks on the registry's scheduler, and an attempt's
 * outcome is handled when its future completes.
 *
 * <p>Threads: the first attempt starts on the caller's thread; later steps run on the scheduler's
 * thread or on whichever thread completes the delegate's future. A delegate that blocks before
 * returning its future therefore blocks that thread, as it would without Brace. Every step that
 * runs elsewhere runs in the caller's context ({@link CallContext}), taken when the call started,
 * and leaves the thread's own context as it found it.
 *
 * <p>The common case costs no driver at all: when nothing has to wait (no hedge, no timeout, a
 * breaker that admits, a token and a bulkhead permit there now) and the delegate's future is
 * already complete with a result no retry asks to repeat, {@link #call} records the outcome and
 * returns a completed future on the caller's thread. Anything else (a refusal, a wait, a future
 * still running, a failure, a timeout to arm, a hedge that may start) hands what the first attempt
 * holds to a driver, which goes on from there.
 *
 * <p>Bulkhead {@code maxWait} on this path: a full bulkhead is polled with {@link
 * SemaphoreBulkhead#tryAcquire()} on the scheduler in short steps until {@code maxWait} has
 * passed, then refused; unlike a parked synchronous caller, a polling caller is not served in
 * arrival order.
 *
 * <p>One instance per call. Steps of one call never run concurrently with each other, but the
 * caller may stop the call at any moment, so what an attempt holds is guarded by {@link #lock},
 * held only to read and write those fields and to hand a task to the scheduler (never across a
 * callback). A lock rather than a monitor, so a virtual thread that waits for it never pins its
 * carrier.
 *
 * @param <T> the future's value type
 */
public final class AsyncDriver<T> {
  /** The longest step between two looks at a full bulkhead; short against any sensible maxWait. */
  private static final long BULKHEAD_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private static final long SHORTEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /** Returned by {@link #claim} when the attempt is already over. */
  private static final Object NOT_CLAIMED = new Object();

  private final CallSequence sequence;
  private final AsyncAttempt<T> delegate;
  private final AsyncFallback<T> fallback;
  private final CompletableFuture<T> returned = new CompletableFuture<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final CallContext context;
  private final CallKeys keys;
  /** When the attempts began ({@link CallSequence#begin}); set before the first attempt. */
  private long started;

  /** The caller's thread until {@link #call} returns: a step running there needs no context restored. */
  private volatile Thread starting;

  private RetryRun run;

  /** Stops what is in flight (an attempt, a backoff or the fallback) when the caller gives up. */
  private Runnable inFlight;

  /** With {@code @StaleIfError}: the key results are remembered under, and the flight this call leads. */
  private Object staleKey;

  private StaleAnswers.Flight flight;

  private AsyncDriver(
      CallSequence sequence,
      AsyncAttempt<T> delegate,
      AsyncFallback<T> fallback,
      CallContext context,
      CallKeys keys,
      long started) {
    this.sequence = sequence;
    this.delegate = delegate;
    this.fallback = fallback;
    this.context = context;
    this.keys = keys;
    this.started = started;
    this.starting = Thread.currentThread();
    returned.whenComplete((value, failure) -> stopInFlight());
  }

  /**
   * Runs a call through every step of its sequence without blocking a thread.
   *
   * @param sequence the call's policies
   * @param keys computes the call's keys, or null when nothing is keyed; evaluated inside the call,
   *     so a null key part fails the returned future
   * @param attempt starts one attempt; called once per attempt
   * @param fallback answers a failure the fallback accepts, or null when the call has none
   * @param <T> the future's value type
   * @return the call's future; never null, nothing thrown
   */
  public static <T> CompletableFuture<T> call(
      CallSequence sequence, Supplier<CallKeys> keys, AsyncAttempt<T> attempt, AsyncFallback<T> fallback) {
    Objects.requireNonNull(attempt, "attempt");
    if (sequence.passesThrough()) {
      return direct(sequence, attempt);
    }
    CallKeys callKeys;
    CallContext context;
    try {
      callKeys = sequence.keys(keys);
      context = CallContext.capture();
    } catch (Throwable badKey) {
      // A null key part is the caller's mistake: it fails the call at once, never retried.
      return CompletableFuture.failedFuture(badKey);
    }
    return call(sequence, callKeys, attempt, fallback, context);
  }

  /**
   * One attempt of a hedged asynchronous call, through the call's per-attempt steps, in the
   * context the hedged call captured when it started (a hedge may begin on the scheduler's thread,
   * where nothing of the caller's is current).
   *
   * @param attemptSteps the call's breaker, limiter, bulkhead and timeout ({@link
   *     CallSequence#attemptsOnly})
   * @param keys the call's keys
   * @param attempt starts the delegate's call
   * @param context the caller's context
   * @param <T> the future's value type
   * @return the attempt's future; never null, nothing thrown
   */
  static <T> CompletableFuture<T> hedgedAttempt(
      CallSequence attemptSteps, CallKeys keys, AsyncAttempt<T> attempt, CallContext context) {
    return call(attemptSteps, keys, attempt, null, context);
  }

  /** The call from its keys and context on: the fast path, or a driver. */
  private static <T> CompletableFuture<T> call(
      CallSequence sequence, CallKeys callKeys, AsyncAttempt<T> attempt, AsyncFallback<T> fallback, CallContext context) {
    long started;
    if (sequence.remembersAnswers()) {
      // A remembered answer, or another call's flight, may answer it without an attempt: the
      // attempts (and the retry budget's deposit) begin only when neither does.
      return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, 0L).remembered();
    }
    try {
      started = sequence.begin();
    } catch (Throwable unexpected) {
      return CompletableFuture.failedFuture(unexpected);
    }
    if (sequence.hedged() || sequence.timeoutPolicy() != null) {
      // A hedge runs a group of attempts, and a deadline is a scheduled task armed before the
      // delegate is called: never the fast path.
      return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, started).firstAttempt();
    }
    Object ticket;
    try {
      ticket = sequence.acquireTicket(callKeys);
    } catch (Throwable refused) {
      return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, started).refusedFirst(refused);
    }
    RateLimiterInstance limiter = sequence.limiter(callKeys);
    long reservation = 0;
    if (limiter != null) {
      // One clock read decides both the reservation and whether the token is there now.
      long now = sequence.now();
      try {
        reservation = limiter.reserveTokenAt(now);
      } catch (Throwable refused) {
        sequence.releaseTicket(ticket);
        return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, started).refusedFirst(refused);
      }
      if (reservation - now > 0) {
        return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, started)
            .waitForToken(ticket, limiter, reservation);
      }
    }
    if (sequence.bulkhead() != null) {
      // At the call's criticality; an adaptive bulkhead's permit comes with a timing slot as the ticket.
      if (!sequence.tryTakeBulkhead()) {
        return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, started).waitForBulkhead(ticket);
      }
      ticket = sequence.bulkheadTaken(ticket);
    }
    if (sequence.timesAttempts()) {
      // A breaker that judges latency times the attempt from here, past everything that may wait.
      ticket = sequence.timed(ticket);
    }
    long calledAt = sequence.attemptStarting();
    CompletableFuture<T> inner;
    try {
      inner = futureOf(attempt.start(), sequence.callName());
    } catch (Throwable thrown) {
      return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, started).failedFirst(ticket, thrown, calledAt);
    }
    if (!inner.isDone() || inner.isCompletedExceptionally()) {
      return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, started).awaitFirst(ticket, inner, calledAt);
    }
    T value = inner.join();
    try {
      sequence.attemptSucceeded(ticket, value, calledAt);
      if (!sequence.retriesResult(value)) {
        sequence.ended(started, null);
        return CompletableFuture.completedFuture(value);
      }
    } catch (Throwable predicateFailure) {
      // A result predicate threw: as on the sync path, the attempt failed with what it threw.
      return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, started).afterFirst(predicateFailure, null);
    }
    return new AsyncDriver<>(sequence, attempt, fallback, context, callKeys, started).afterFirst(null, value);
  }

  /** Brace is switched off: the delegate's own future, or its synchronous throw as a failed one. */
  private static <T> CompletableFuture<T> direct(CallSequence sequence, AsyncAttempt<T> attempt) {
    try {
      return futureOf(attempt.start(), sequence.callName());
    } catch (Throwable thrown) {
      return CompletableFuture.failedFuture(thrown);
    }
  }

  // ---- handing the first attempt over from the fast path ----

  /** The call has a hedge or a timeout: the first attempt starts here, from the breaker. */
  private CompletableFuture<T> firstAttempt() {
    return started(() -> attempt(1));
  }

  /** This wrapper's own breaker or limiter refused the first attempt, which holds nothing. */
  private CompletableFuture<T> refusedFirst(Throwable refusal) {
    return started(() -> afterFailure(1, ExceptionFilter.unwrap(refusal)));
  }

  /** The first attempt holds its breaker ticket and waits for a reserved token. */
  private CompletableFuture<T> waitForToken(Object ticket, RateLimiterInstance limiter, long reservation) {
    return started(() -> {
      InFlight attempt = holding(ticket, false);
      if (attempt != null) {
        awaitToken(attempt, limiter, reservation);
      }
    });
  }

  /** The first attempt holds its breaker ticket and its token, and the bulkhead is full. */
  private CompletableFuture<T> waitForBulkhead(Object ticket) {
    return started(() -> {
      InFlight attempt = holding(ticket, false);
      if (attempt != null) {
        takeBulkhead(attempt, 0);
      }
    });
  }

  /** The delegate threw instead of returning a future. */
  private CompletableFuture<T> failedFirst(Object ticket, Throwable thrown, long calledAt) {
    return started(() -> {
      InFlight attempt = holding(ticket, true);
      if (attempt != null) {
        attempt.calledAt = calledAt;
        settle(attempt, null, thrown);
      }
    });
  }

  /** The delegate's future is still running, or failed. */
  private CompletableFuture<T> awaitFirst(Object ticket, CompletableFuture<T> inner, long calledAt) {
    return started(() -> {
      InFlight attempt = holding(ticket, true);
      if (attempt != null) {
        attempt.calledAt = calledAt;
        awaitOutcome(attempt, inner);
      }
    });
  }

  /**
   * The first attempt's outcome is recorded, and either a result predicate threw ({@code failure})
   * or the retry asks to repeat the result.
   */
  private CompletableFuture<T> afterFirst(Throwable failure, T value) {
    return started(() -> {
      if (failure != null) {
        afterFailure(1, failure);
      } else {
        retryResult(1, value);
      }
    });
  }

  /** Runs the first step on the caller's thread; the wrapper never throws. */
  private CompletableFuture<T> started(Runnable first) {
    try {
      first.run();
    } catch (Throwable unexpected) {
      // A bug or a rejected task surfaces through the future.
      returned.completeExceptionally(unexpected);
    } finally {
      starting = null;
    }
    return returned;
  }

  /** The call remembers its results: a remembered or shared answer may spare it the attempts. */
  private CompletableFuture<T> remembered() {
    return started(() -> {
      staleKey = sequence.staleKey(keys);
      returned.whenComplete((value, failure) -> abandonFlight());
      rememberedOrAttempts();
    });
  }

  /** The attempts of a call that remembers its results, started once no remembered answer did. */
  private void attempts() {
    try {
      started = sequence.begin();
      attempt(1);
    } catch (Throwable unexpected) {
      // A bug or a rejected task surfaces through the future.
      returned.completeExceptionally(unexpected);
    }
  }

  // ---- remembered results (@StaleIfError), around the attempts ----

  /**
   * A fresh remembered result answers at once; with single flight, a call that finds another call
   * of its key in flight completes with that one's outcome (its future depends on the leader's,
   * nothing waits); otherwise the attempts run.
   */
  @SuppressWarnings("unchecked")
  private void rememberedOrAttempts() {
    try {
      while (!returned.isDone()) {
        Object fresh = sequence.freshAnswer(staleKey);
        if (fresh != StaleAnswers.NONE) {
          returned.complete((T) fresh);
          return;
        }
        if (!sequence.singleFlight()) {
          break;
        }
        StaleAnswers.Flight led = sequence.lead(staleKey);
        if (led != null) {
          lock.lock();
          try {
            flight = led;
          } finally {
            lock.unlock();
          }
          if (returned.isDone()) {
            // The caller gave up before this call could lead: its followers call on their own.
            abandonFlight();
            return;
          }
          break;
        }
        CompletableFuture<Object> leader = sequence.following(staleKey);
        if (leader != null) {
          // The leader may complete on any thread: what follows (maybe this call's own attempts)
          // runs in this caller's context.
          leader.whenComplete((value, failure) -> inCallerContext(() -> followed(value, failure)).run());
          return;
        }
      }
    } catch (Throwable unexpected) {
      returned.completeExceptionally(unexpected);
      return;
    }
    if (!returned.isDone()) {
      attempts();
    }
  }

  /** The leader's outcome, shared; a leader that stopped without one sends this call round again. */
  @SuppressWarnings("unchecked")
  private void followed(Object value, Throwable failure) {
    if (returned.isDone()) {
      return;
    }
    if (StaleAnswers.abandoned(failure)) {
      rememberedOrAttempts();
    } else if (failure == null) {
      returned.complete((T) value);
    } else {
      finish(ExceptionFilter.unwrap(failure));
    }
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
      sequence.abandon(led);
    }
  }

  /** The call's own result: remembered (and shared with its followers), then the caller's. */
  private void succeeded(T value) {
    if (staleKey != null) {
      try {
        sequence.succeeded(staleKey, value, endFlight());
      } catch (Throwable unexpected) {
        returned.completeExceptionally(unexpected);
        return;
      }
    }
    returned.complete(value);
  }

  /**
   * @param pastBulkhead whether the fast path went past the bulkhead (which took a permit if the
   *     call has one)
   * @return attempt 1, holding what the fast path took; null (all released) if it is already over
   */
  private InFlight holding(Object ticket, boolean pastBulkhead) {
    boolean holdsBulkhead = pastBulkhead && sequence.bulkhead() != null;
    InFlight attempt = new InFlight(1);
    lock.lock();
    try {
      attempt.ticket = ticket;
      attempt.holdsBulkhead = holdsBulkhead;
    } finally {
      lock.unlock();
    }
    return track(attempt::end) ? attempt : null;
  }

  /**
   * @return {@code step}, run in the caller's context unless it runs on the caller's thread while
   *     the call is still being started there
   */
  private Runnable inCallerContext(Runnable step) {
    return () -> {
      if (Thread.currentThread() == starting) {
        step.run();
        return;
      }
      try (CallContext.Scope restored = context.restore()) {
        step.run();
      }
    };
  }

  // ---- between attempts: retry, fallback, the caller giving up ----

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

  private void afterFailure(int number, Throwable failure) {
    if (returned.isDone()) {
      return;
    }
    run = sequence.retryRun(run);
    long delay = sequence.retryDelay(run, number, started, failure);
    if (delay == RetryPolicy.STOP) {
      finish(failure);
      return;
    }
    run.recordFailure(failure);
    retryAfter(number + 1, delay);
  }

  private void afterResult(int number, T value) {
    if (!returned.isDone()) {
      boolean retried;
      try {
        retried = sequence.retriesResult(value);
      } catch (Throwable predicateFailure) {
        afterFailure(number, predicateFailure);
        return;
      }
      if (retried) {
        retryResult(number, value);
        return;
      }
      sequence.ended(started, null);
    }
    succeeded(value);
  }

  /** A result the retry's predicate asked to repeat: another attempt follows, or it is the call's. */
  private void retryResult(int number, T value) {
    run = sequence.retryRun(run);
    long delay = sequence.retryDelayForResult(run, number, started);
    if (delay != RetryPolicy.STOP) {
      retryAfter(number + 1, delay);
      return;
    }
    succeeded(value);
  }

  private void retryAfter(int number, long delayNanos) {
    if (delayNanos <= 0) {
      attempt(number);
      return;
    }
    lock.lock();
    try {
      if (returned.isDone()) {
        return;
      }
      ScheduledFuture<?> backoff =
          sequence.scheduler().schedule(inCallerContext(() -> attempt(number)), delayNanos, TimeUnit.NANOSECONDS);
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
    // Reported as the failure it is, as the synchronous driver does: brace.stale counts the answers.
    sequence.ended(started, failure);
    if (staleKey != null) {
      Object stale;
      try {
        stale = sequence.staleAnswer(staleKey, failure, endFlight());
      } catch (Throwable unexpected) {
        returned.completeExceptionally(unexpected);
        return;
      }
      if (stale != StaleAnswers.NONE) {
        returned.complete((T) stale);
        return;
      }
    }
    Throwable answered = fallback == null ? null : sequence.answerable(failure);
    if (answered == null) {
      returned.completeExceptionally(failure);
      return;
    }
    CompletableFuture<T> answer;
    try {
      answer = futureOf(fallback.apply(answered), "the fallback of " + sequence.callName());
    } catch (Throwable fallbackFailure) {
      returned.completeExceptionally(
          CallSequence.withOriginal(ExceptionFilter.unwrap(fallbackFailure), failure));
      return;
    }
    if (!track(() -> answer.cancel(true))) {
      answer.cancel(true);
      return;
    }
    answer.whenComplete(
        (value, fallbackFailure) -> inCallerContext(() -> {
          if (fallbackFailure == null) {
            returned.complete(value);
          } else {
            returned.completeExceptionally(
                CallSequence.withOriginal(ExceptionFilter.unwrap(fallbackFailure), failure));
          }
        }).run());
  }

  // ---- one attempt: breaker, limiter, bulkhead, timeout, call ----

  private void attempt(int number) {
    if (sequence.hedged()) {
      hedgedAttempts(number);
      return;
    }
    InFlight attempt = new InFlight(number);
    // The caller giving up ends the attempt without an outcome.
    if (!track(attempt::end)) {
      return;
    }
    Object ticket;
    try {
      ticket = sequence.acquireTicket(keys);
    } catch (Throwable refused) {
      refused(attempt, refused);
      return;
    }
    lock.lock();
    try {
      if (!attempt.over) {
        attempt.ticket = ticket;
        ticket = null;
      }
    } finally {
      lock.unlock();
    }
    if (ticket != null) {
      sequence.releaseTicket(ticket);
      return;
    }
    reserveToken(attempt);
  }

  /**
   * With a hedge, a group of attempts takes the place of one: each passes breaker, limiter,
   * bulkhead and timeout on its own, and the group's outcome is what the retry judges.
   */
  private void hedgedAttempts(int number) {
    CompletableFuture<T> group;
    try {
      group = AsyncHedgeGroup.start(sequence, keys, delegate, context);
    } catch (Throwable unexpected) {
      afterFailure(number, unexpected);
      return;
    }
    if (!track(() -> group.cancel(true))) {
      group.cancel(true);
      return;
    }
    // The group may complete on any attempt's thread: what follows runs in the caller's context.
    group.whenComplete((value, failure) -> inCallerContext(() -> {
      if (failure == null) {
        afterResult(number, value);
      } else {
        afterFailure(number, ExceptionFilter.unwrap(failure));
      }
    }).run());
  }

  private void reserveToken(InFlight attempt) {
    RateLimiterInstance limiter;
    long reservation;
    try {
      limiter = sequence.limiter(keys);
      if (limiter == null) {
        takeBulkhead(attempt, 0);
        return;
      }
      reservation = limiter.reserveToken();
    } catch (Throwable refused) {
      refused(attempt, refused);
      return;
    }
    awaitToken(attempt, limiter, reservation);
  }

  /** Goes on to the bulkhead once the reserved token is there. */
  private void awaitToken(InFlight attempt, RateLimiterInstance limiter, long reservation) {
    long waitNanos = limiter.waitFor(reservation);
    if (waitNanos <= 0) {
      takeBulkhead(attempt, 0);
      return;
    }
    later(attempt, () -> tokenArrived(attempt, limiter, waitNanos), waitNanos, limiter, reservation);
  }

  private void tokenArrived(InFlight attempt, RateLimiterInstance limiter, long waitedNanos) {
    lock.lock();
    try {
      if (attempt.over) {
        return;
      }
      attempt.waiting = null;
      attempt.reserved = null;
    } finally {
      lock.unlock();
    }
    limiter.waited(waitedNanos);
    takeBulkhead(attempt, 0);
  }

  /** Takes a bulkhead permit, polling for up to {@code maxWait}; {@code waitedNanos} so far. */
  private void takeBulkhead(InFlight attempt, long waitedNanos) {
    SemaphoreBulkhead bulkhead = sequence.bulkhead();
    if (bulkhead == null) {
      call(attempt);
      return;
    }
    boolean taken = sequence.tryTakeBulkhead();
    if (taken && waitedNanos > 0) {
      bulkhead.waited(waitedNanos);
    }
    if (!taken) {
      long maxWaitNanos = RetryPolicy.saturatedNanos(bulkhead.config().maxWait());
      long remaining = maxWaitNanos - waitedNanos;
      if (remaining <= 0) {
        refused(attempt, sequence.bulkheadFull());
        return;
      }
      long step = Math.min(remaining, Math.max(SHORTEST_POLL_NANOS, Math.min(BULKHEAD_POLL_NANOS, maxWaitNanos / 10)));
      later(attempt, () -> lookAgain(attempt, waitedNanos + step), step, null, 0);
      return;
    }
    boolean kept;
    lock.lock();
    try {
      kept = !attempt.over;
      attempt.holdsBulkhead = kept;
      if (kept) {
        attempt.ticket = sequence.bulkheadTaken(attempt.ticket);
      }
    } finally {
      lock.unlock();
    }
    if (!kept) {
      bulkhead.release();
      return;
    }
    call(attempt);
  }

  private void lookAgain(InFlight attempt, long waitedNanos) {
    lock.lock();
    try {
      if (attempt.over) {
        return;
      }
      attempt.waiting = null;
    } finally {
      lock.unlock();
    }
    takeBulkhead(attempt, waitedNanos);
  }

  private void call(InFlight attempt) {
    if (sequence.timesAttempts()) {
      lock.lock();
      try {
        if (attempt.ticket != null) {
          attempt.ticket = sequence.timed(attempt.ticket);
        }
      } finally {
        lock.unlock();
      }
    }
    TimeoutPolicy timeout = sequence.timeoutPolicy();
    if (timeout != null
        && !later(attempt, () -> expired(attempt, timeout), timeout.nanos(), null, 0)) {
      return;
    }
    attempt.calledAt = sequence.attemptStarting();
    CompletableFuture<T> inner;
    try {
      inner = futureOf(delegate.start(), sequence.callName());
    } catch (Throwable thrown) {
      settle(attempt, null, thrown);
      return;
    }
    awaitOutcome(attempt, inner);
  }

  /** Settles the attempt when the delegate's future completes, wherever that happens. */
  private void awaitOutcome(InFlight attempt, CompletableFuture<T> inner) {
    boolean cancel;
    lock.lock();
    try {
      cancel = attempt.over;
      attempt.inner = inner;
    } finally {
      lock.unlock();
    }
    if (cancel) {
      // Timed out or stopped before the delegate even returned its future.
      inner.cancel(true);
      return;
    }
    inner.whenComplete((value, failure) -> inCallerContext(() -> settle(attempt, value, failure)).run());
  }

  private void expired(InFlight attempt, TimeoutPolicy timeout) {
    Object ticket = claim(attempt);
    if (ticket == NOT_CLAIMED) {
      return;
    }
    // Claimed first, so the inner future's cancellation below is not taken for its outcome.
    CompletableFuture<?> inner;
    lock.lock();
    try {
      inner = attempt.inner;
    } finally {
      lock.unlock();
    }
    if (inner != null) {
      inner.cancel(true);
    }
    record(attempt, ticket, null, timeout.exceeded());
  }

  /** The attempt reached the delegate and its future completed (or it threw before returning one). */
  private void settle(InFlight attempt, T value, Throwable failure) {
    Object ticket = claim(attempt);
    if (ticket != NOT_CLAIMED) {
      record(attempt, ticket, value, failure == null ? null : ExceptionFilter.unwrap(failure));
    }
  }

  /**
   * Takes the outcome of an attempt that reached the delegate: exactly one of its future, its
   * deadline and the caller's stop wins.
   *
   * @return the breaker ticket to record the outcome with (null without a breaker), or {@link
   *     #NOT_CLAIMED} when the attempt is already over
   */
  private Object claim(InFlight attempt) {
    Object ticket;
    ScheduledFuture<?> deadline;
    lock.lock();
    try {
      if (attempt.over) {
        return NOT_CLAIMED;
      }
      attempt.over = true;
      ticket = attempt.ticket;
      deadline = attempt.waiting;
      attempt.ticket = null;
      attempt.holdsBulkhead = false;
      attempt.waiting = null;
    } finally {
      lock.unlock();
    }
    if (deadline != null) {
      deadline.cancel(false);
    }
    return ticket;
  }

  /** The breaker records the outcome, the bulkhead permit is returned, then retry decides. */
  private void record(InFlight attempt, Object ticket, T value, Throwable cause) {
    try {
      if (cause != null) {
        sequence.attemptFailed(ticket, cause, attempt.calledAt);
      } else {
        sequence.attemptSucceeded(ticket, value, attempt.calledAt);
      }
    } catch (Throwable recording) {
      // The breaker's result predicate threw: as on the sync path, that ends the attempt.
      afterFailure(attempt.number, cause != null ? cause : recording);
      return;
    }
    if (cause != null) {
      afterFailure(attempt.number, cause);
    } else {
      afterResult(attempt.number, value);
    }
  }

  /** Refused by this wrapper's own breaker, limiter or bulkhead: no outcome, only a release. */
  private void refused(InFlight attempt, Throwable refusal) {
    if (attempt.end()) {
      afterFailure(attempt.number, ExceptionFilter.unwrap(refusal));
    }
  }

  /**
   * Schedules the attempt's next step, unless the attempt is already over.
   *
   * @param reserved the limiter whose token the step waits for, given back if the attempt stops
   * @param reservation the reservation of that token
   * @return false when the attempt was over or the scheduler refused the task (which then ends
   *     the attempt); nothing is scheduled and the token is given back
   */
  private boolean later(
      InFlight attempt, Runnable step, long delayNanos, RateLimiterInstance reserved, long reservation) {
    Throwable rejected = null;
    lock.lock();
    try {
      if (!attempt.over) {
        try {
          attempt.waiting = sequence.scheduler().schedule(inCallerContext(step), delayNanos, TimeUnit.NANOSECONDS);
          attempt.reserved = reserved;
          attempt.reservation = reservation;
          return true;
        } catch (Throwable schedulerFailure) {
          rejected = schedulerFailure;
        }
      }
    } finally {
      lock.unlock();
    }
    if (reserved != null) {
      reserved.cancelReservation(reservation);
    }
    if (rejected != null) {
      refused(attempt, rejected);
    }
    return false;
  }

  /** @throws NullPointerException naming the call when there is no future */
  private static <T> CompletableFuture<T> futureOf(CompletionStage<T> stage, String source) {
    if (stage == null) {
      throw new NullPointerException(source + " returned null instead of a future");
    }
    try {
      return stage.toCompletableFuture();
    } catch (UnsupportedOperationException noConversion) {
      CompletableFuture<T> copy = new CompletableFuture<>();
      stage.whenComplete((value, failure) -> {
        if (failure == null) {
          copy.complete(value);
        } else {
          copy.completeExceptionally(failure);
        }
      });
      return copy;
    }
  }

  /** What one attempt holds, so that whoever ends it releases each permit exactly once. */
  private final class InFlight {
    final int number;
    /** Guarded by the driver's lock, like the fields below. */
    boolean over;
    Object ticket;
    RateLimiterInstance reserved;
    long reservation;
    boolean holdsBulkhead;
    /** The limiter wait, the bulkhead poll or, once the call runs, the timeout's deadline. */
    ScheduledFuture<?> waiting;
    CompletableFuture<?> inner;
    /** When the delegate was called, for metrics; {@link CallSequence#UNTIMED} with no listener. */
    long calledAt = CallSequence.UNTIMED;

    InFlight(int number) {
      this.number = number;
    }

    /** Ends the attempt without an outcome, releasing what it holds; false when it was over. */
    boolean end() {
      Object heldTicket;
      RateLimiterInstance heldToken;
      long heldReservation;
      boolean heldBulkhead;
      ScheduledFuture<?> pending;
      CompletableFuture<?> call;
      lock.lock();
      try {
        if (over) {
          return false;
        }
        over = true;
        heldTicket = ticket;
        heldToken = reserved;
        heldReservation = reservation;
        heldBulkhead = holdsBulkhead;
        pending = waiting;
        call = inner;
        ticket = null;
        reserved = null;
        holdsBulkhead = false;
        waiting = null;
      } finally {
        lock.unlock();
      }
      if (pending != null) {
        pending.cancel(false);
      }
      if (call != null) {
        call.cancel(true);
      }
      if (heldToken != null) {
        heldToken.cancelReservation(heldReservation);
      }
      sequence.abandon(heldTicket, heldBulkhead);
      return true;
    }

  }
}
