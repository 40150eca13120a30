package dev.brace.runtime.internal.attempt;

import static dev.brace.runtime.internal.attempt.AttemptState.NO_DEADLINE;

import dev.brace.Criticality;
import dev.brace.Timeout;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.internal.chaos.FaultInjection;
import dev.brace.runtime.internal.context.CurrentDeadline;
import dev.brace.runtime.internal.policy.CallerInterrupted;
import dev.brace.runtime.internal.policy.DeadlinePolicy;
import dev.brace.runtime.internal.policy.InterruptAlarm;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.spi.driver.DelegateCall;
import dev.brace.runtime.support.SlotInvoker;

/**
 * The one place that decides how long an attempt of a call may take, and runs it within that:
 * its own timeout (counted from the admission instant), the deadline it inherits from its caller
 * (when the call {@linkplain DeadlinePolicy#inherits inherits} it), the earlier of the two; what it
 * passes on to the calls nested in it; and what it ends with when that bound passes first —
 * {@link TimeoutExceededException} for its own timeout (the breaker counts it), {@link
 * DeadlineExceededException} for the inherited deadline (no breaker counts it).
 *
 * <p>Along an attempt's way through the {@link AttemptPipeline}: at admission the inherited
 * deadline is read (a passed one refuses the attempt), no limiter wait starts whose token would come
 * after it and no bulkhead wait outlasts it; once admitted, the bound is fixed ({@link #admitted});
 * the attempt runs under it ({@link #invoke} on the caller's thread, {@link #launch} for an
 * asynchronous one, whose driver arms {@link #attemptNanos} and ends it with {@link #timedOut}).
 *
 * <p>Nested calls inherit the bound: while the attempt's delegate runs on this thread, the attempt
 * lays it over the thread's current deadline ({@link CurrentDeadline#passOn}), and a nested call
 * reads it from there only if it asks. A call that takes no part in deadlines passes nothing on and
 * reads nothing, and a call with neither a timeout nor a deadline does no more than call its
 * delegate.
 *
 * <p>Every instant is on the registry's clock: the inherited deadline is converted once, at
 * admission. Immutable and thread-safe; the attempt's state carries what belongs to one attempt.
 */
public final class AttemptBounds {
  private final TimeoutPolicy timeout;
  /** The call's part in its callers' deadlines; null when it takes none (it reads and passes on nothing). */
  private final DeadlinePolicy deadlines;
  /** Whether the call is bounded by its caller's deadline; read on every attempt. */
  private final boolean inherits;
  /** The registry's clock. Instants are compared by their difference, so a far one never overflows. */
  private final TimeSource time;
  /** Null unless fault injection is configured: an injected latency runs inside the attempt's bound. */
  private final FaultInjection faults;
  /** An attempt the inherited deadline cut short: the caller ran out of time. */
  private final TimeoutPolicy.Expiry inheritedExpiry;

  /**
   * @param timeout the call's timeout, or null
   * @param deadlines how the call takes part in deadlines, or null for not at all
   * @param time the registry's clock
   * @param faults the call's fault injection, or null
   */
  AttemptBounds(TimeoutPolicy timeout, DeadlinePolicy deadlines, TimeSource time, FaultInjection faults) {
    this.timeout = timeout;
    this.deadlines = deadlines;
    this.inherits = deadlines != null && deadlines.inherits();
    this.time = time;
    this.faults = faults;
    this.inheritedExpiry = deadlines == null ? null : (end, budgetNanos) -> deadlines.exceeded(end, budgetNanos, time.nanoTime());
  }

  /** @return the call's timeout, or null: an asynchronous driver arms its deadline on the timeout's scheduler */
  public TimeoutPolicy timeout() {
    return timeout;
  }

  /** @return the call's fault injection, or null */
  public FaultInjection faults() {
    return faults;
  }

  /**
   * @return whether the call takes part in deadlines and this thread is under one: its attempt then
   *     needs a state to carry its bound, and is not tried without one
   */
  boolean threadUnderDeadline() {
    return deadlines != null && CurrentDeadline.presentOnThisThread();
  }

  /**
   * @param state the state of the attempt about to start on this thread
   * @return whether it is bounded (its timeout, an inherited deadline): an asynchronous one then arms a deadline
   */
  public boolean bounded(AttemptState state) {
    return timeout != null || (inherits && state.currentDeadline().present());
  }

  // ---- admission ----

  /**
   * Reads the deadline the attempt inherits, before anything is taken.
   *
   * @throws DeadlineExceededException when it has passed
   */
  void enter(AttemptState state) {
    if (deadlines == null) {
      return;
    }
    state.inheritedEnd = NO_DEADLINE;
    if (!inherits) {
      return;
    }
    CurrentDeadline current = state.currentDeadline();
    if (!current.present()) {
      return;
    }
    long now = time.nanoTime();
    state.inheritedEnd = current.endOn(time, now);
    state.inheritedBudget = current.budgetNanos();
    if (state.inheritedEnd - now <= 0) {
      throw exceeded(state, now);
    }
  }

  /**
   * A token reserved for after the inherited deadline could not be used in time: it is given back
   * and the attempt refused at once, rather than after waiting in vain.
   *
   * @throws DeadlineExceededException when the reservation falls after the deadline
   */
  void checkToken(AttemptState state, RateLimiterInstance limiter, long reservation, long now) {
    if (deadlines != null && state.inheritedEnd != NO_DEADLINE && reservation - state.inheritedEnd >= 0) {
      limiter.cancelReservation(reservation);
      throw exceeded(state, now);
    }
  }

  /**
   * @return nanoseconds left of the inherited deadline for a bulkhead wait, or {@link Long#MAX_VALUE}
   *     without one
   * @throws DeadlineExceededException when none is left
   */
  long waitLeft(AttemptState state) {
    if (deadlines == null || state.inheritedEnd == NO_DEADLINE) {
      return Long.MAX_VALUE;
    }
    long now = time.nanoTime();
    long left = state.inheritedEnd - now;
    if (left <= 0) {
      throw exceeded(state, now);
    }
    return left;
  }

  /**
   * Waits on this thread for a permit of a full bulkhead, no longer than the inherited deadline
   * allows.
   *
   * @throws DeadlineExceededException when the deadline ended the wait
   * @throws dev.brace.runtime.BulkheadFullException when {@code maxWait} did, or the wait was interrupted
   */
  void acquire(AttemptState state, SemaphoreBulkhead bulkhead, Criticality.Level criticality) {
    if (deadlines == null) {
      bulkhead.acquire(criticality);
    } else if (!bulkhead.acquireWithin(criticality, waitLeft(state))) {
      throw exceeded(state, time.nanoTime());
    }
  }

  /** @return whether admission needs the clock read for the attempt's bound: it inherits a deadline */
  boolean needsAdmissionTime(AttemptState state) {
    return deadlines != null && state.inheritedEnd != NO_DEADLINE;
  }

  /**
   * Admitted at {@code state.admittedAt}: the attempt's bound is its timeout or the inherited
   * deadline, the earlier.
   *
   * @throws DeadlineExceededException when the waits used up the deadline
   */
  void admitted(AttemptState state) {
    if (deadlines == null
        || (state.inheritedEnd == NO_DEADLINE && (timeout == null || state.admittedAt == AttemptState.UNTIMED))) {
      // No bound to decide here: a timeout alone counts from the admission instant when it runs.
      return;
    }
    long own = timeout == null || state.admittedAt == AttemptState.UNTIMED
        ? NO_DEADLINE
        : state.admittedAt + timeout.nanos();
    long inherited = state.inheritedEnd;
    if (inherited != NO_DEADLINE && inherited - state.admittedAt <= 0) {
      throw exceeded(state, state.admittedAt);
    }
    if (inherited != NO_DEADLINE && (own == NO_DEADLINE || inherited - own < 0)) {
      state.end = inherited;
      state.endInherited = true;
    } else {
      state.end = own;
      state.endInherited = false;
    }
  }

  /** Forgets the bound of the attempt that ended, when it had one; the next attempt decides its own. */
  static void forget(AttemptState state) {
    if (state.end != NO_DEADLINE || state.inheritedEnd != NO_DEADLINE) {
      state.inheritedEnd = NO_DEADLINE;
      state.end = NO_DEADLINE;
      state.endInherited = false;
    }
  }

  // ---- the attempt ----

  /**
   * Runs an admitted attempt on the calling thread under its bound: its own timeout counted from
   * the admission instant, or the inherited deadline when earlier (in the timeout's mode, else by
   * interrupting the caller's thread). An injected latency sleeps inside the bound, so the bound
   * cuts it short as a real one.
   *
   * @throws Throwable what it threw; {@link TimeoutExceededException} when its own timeout expired
   *     (also when a nested call ran out of the bound this attempt passed on); {@link
   *     DeadlineExceededException} when the inherited deadline cut it short
   */
  public Object invoke(AttemptState state, DelegateCall attempt) throws Throwable {
    DelegateCall run = faults == null ? attempt : faults.intoSync(attempt);
    if (deadlines == null) {
      return timeout == null ? run.call() : ownTimeout(run, admittedOrNow(state) + timeout.nanos());
    }
    CurrentDeadline thread = passesOn(state) ? state.currentDeadline() : null;
    CurrentDeadline.PassedOn outer = thread == null ? null : thread.passOn(state);
    try {
      if (state.end == NO_DEADLINE) {
        return run.call();
      }
      if (!state.endInherited) {
        try {
          return ownTimeout(run, state.end);
        } catch (DeadlineExceededException nested) {
          throw judged(state, nested);
        }
      }
      return untilInherited(state, run);
    } finally {
      if (thread != null) {
        thread.stopPassingOn(outer);
      }
    }
  }

  /**
   * Runs an attempt admitted without waiting, whose state is kept in locals, on this thread under
   * its own timeout counted from {@code admittedAt}; the timeout interrupts the thread. Asked only
   * of a call whose timeout interrupts, on a thread under no deadline ({@link
   * AttemptPipeline#callWithoutWaiting}): the bound is then the timeout's alone, and the alarm
   * that enforces it is what the attempt passes on to the calls nested in it, when the call takes
   * part in deadlines.
   *
   * @throws Throwable what the delegate threw; {@link TimeoutExceededException} when the timeout
   *     expired (also when a nested call ran out of the bound passed on)
   */
  Object invokeInLocals(SlotInvoker invoker, int method, Object target, Object a, Object b, Object c, Object d, long x,
      long y, long admittedAt) throws Throwable {
    long end = admittedAt + timeout.nanos();
    InterruptAlarm alarm = timeout.arm(end);
    CurrentDeadline thread = deadlines == null ? null : CurrentDeadline.ofThisThread();
    CurrentDeadline.PassedOn outer = thread == null ? null : thread.passOn(alarm);
    Object result = null;
    Throwable failure = null;
    try {
      result = invoker.invoke(method, target, a, b, c, d, x, y);
    } catch (Throwable thrown) {
      failure = thrown;
    } finally {
      if (thread != null) {
        thread.stopPassingOn(outer);
      }
    }
    failure = timeout.disarm(alarm, failure, timeout.nanos(), timeout.ownExpiry());
    if (failure != null) {
      throw judgedAgainst(end, failure);
    }
    return result;
  }

  private Object ownTimeout(DelegateCall attempt, long end) throws Throwable {
    return timeout.call(attempt, end, timeout.nanos(), timeout.mode(), timeout.ownExpiry());
  }

  private long admittedOrNow(AttemptState state) {
    return state.admittedAt == AttemptState.UNTIMED ? time.nanoTime() : state.admittedAt;
  }

  private Object untilInherited(AttemptState state, DelegateCall attempt) throws Throwable {
    TimeoutPolicy timer = timeout != null ? timeout : deadlines.timer();
    Timeout.Mode mode = timeout != null ? timeout.mode() : Timeout.Mode.INTERRUPT;
    try {
      return timer.call(attempt, state.end, state.inheritedBudget, mode, inheritedExpiry);
    } catch (DeadlineExceededException | CallerInterrupted | Error passOn) {
      throw passOn;
    } catch (Throwable failure) {
      long now = time.nanoTime();
      if (now - state.end < 0) {
        throw failure;
      }
      // Ended past the deadline by another's doing (an outer call's timeout interrupting this
      // thread): the caller ran out of time, whatever the attempt ended with.
      DeadlineExceededException exceeded = exceeded(state, now);
      exceeded.addSuppressed(failure);
      throw exceeded;
    }
  }

  /**
   * Calls an admitted asynchronous attempt's delegate (its deadline armed by the driver) with the
   * attempt's bound passed on to the calls it makes; an injected fault or latency comes first,
   * inside the bound.
   *
   * @return the delegate's future, or the one fault injection stands in with
   * @throws Throwable what the delegate threw before returning one
   */
  public Object launch(AttemptState state, DelegateCall attempt) throws Throwable {
    CurrentDeadline thread = deadlines != null && passesOn(state) ? state.currentDeadline() : null;
    if (thread == null) {
      return faults == null ? attempt.call() : faults.intoAsync(attempt);
    }
    CurrentDeadline.PassedOn outer = thread.passOn(state);
    try {
      return faults == null ? attempt.call() : faults.intoAsync(attempt);
    } finally {
      thread.stopPassingOn(outer);
    }
  }

  /**
   * Decides what an attempt of a call that takes part in deadlines passes on to the calls nested in
   * it, and writes it into its attempt's state: its own bound, or the retry's {@code maxDuration} when that
   * comes first; no deadline at all for a call that ignores its caller's deadline and has no bound
   * of its own (a write that must finish: the calls nested in it are not cut short by its caller's).
   *
   * @return false when it passes nothing on: it has no bound, or its bound is the caller's deadline,
   *     which goes on binding the nested calls as it is
   */
  private boolean passesOn(AttemptState state) {
    if (state.end == NO_DEADLINE && state.callEnd == NO_DEADLINE) {
      if (inherits || !state.currentDeadline().present()) {
        return false;
      }
      passedOnBy(state, true);
      return true;
    }
    if (!callEndFirst(state) && state.endInherited && state.currentDeadline().clock() == time) {
      // The caller's deadline is the bound, and it is current on this thread already, on this clock.
      return false;
    }
    passedOnBy(state, false);
    return true;
  }

  private void passedOnBy(AttemptState state, boolean noDeadline) {
    // Kept across the attempts of a frame's state: a reference store costs a collector's barrier.
    if (state.passedOnBy != this) {
      state.passedOnBy = this;
    }
    state.passesNoDeadline = noDeadline;
  }

  /** @return the clock of the bound an attempt passes on: the registry's */
  TimeSource clock() {
    return time;
  }

  /** @return the instant of the bound an attempt {@linkplain #passesOn passes on}: the retry's {@code maxDuration} when it comes first, else the attempt's own bound */
  long passedOnEnd(AttemptState state) {
    return callEndFirst(state) ? state.callEnd : state.end;
  }

  /** @return the length of the bound an attempt {@linkplain #passesOn passes on}, as it was set */
  long passedOnBudget(AttemptState state) {
    if (callEndFirst(state)) {
      return state.callBudget;
    }
    return state.endInherited ? state.inheritedBudget : (timeout == null ? 0 : timeout.nanos());
  }

  private static boolean callEndFirst(AttemptState state) {
    return state.callEnd != NO_DEADLINE && (state.end == NO_DEADLINE || state.callEnd - state.end < 0);
  }

  /** @return nanoseconds from now an admitted asynchronous attempt may take (its timeout, or the caller's deadline), -1 for no bound */
  public long attemptNanos(AttemptState state) {
    if (deadlines == null) {
      return timeout == null ? -1 : timeout.nanos();
    }
    if (state.end == NO_DEADLINE) {
      return -1;
    }
    if (!state.endInherited) {
      return timeout.nanos();
    }
    return Math.max(0, state.end - time.nanoTime());
  }

  /** @return the failure (reported) of an asynchronous attempt whose bound, timeout or caller's deadline, passed first */
  public TimeoutExceededException timedOut(AttemptState state) {
    return deadlines != null && state.endInherited ? exceeded(state, time.nanoTime()) : timeout.exceeded();
  }

  /**
   * A call nested in an attempt under its own timeout ran out of the bound the attempt passed on:
   * that is the attempt's own timeout, reached first by the nested call, and the breaker counts it.
   *
   * @return the failure the attempt ends with
   */
  Throwable judged(AttemptState state, Throwable failure) {
    return state.endInherited || state.end == NO_DEADLINE ? failure : judgedAgainst(state.end, failure);
  }

  /** As {@link #judged}, for an attempt under its own timeout, which ends at {@code end}. */
  private Throwable judgedAgainst(long end, Throwable failure) {
    if (deadlines != null && failure instanceof DeadlineExceededException nested && timeout != null
        && passedOn(nested, end)) {
      TimeoutExceededException own = timeout.exceeded();
      own.addSuppressed(failure);
      return own;
    }
    return failure;
  }

  private boolean passedOn(DeadlineExceededException nested, long end) {
    Deadline deadline = nested.deadline();
    return deadline != null && deadline.clock() == time && deadline.nanoTime() == end;
  }

  private DeadlineExceededException exceeded(AttemptState state, long now) {
    return deadlines.exceeded(state.inheritedEnd, state.inheritedBudget, now);
  }
}
