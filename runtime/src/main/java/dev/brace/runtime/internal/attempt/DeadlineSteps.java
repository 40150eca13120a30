package dev.brace.runtime.internal.attempt;

import static dev.brace.runtime.internal.attempt.AttemptTicket.NO_DEADLINE;

import dev.brace.Criticality;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.internal.context.CurrentDeadline;
import dev.brace.runtime.internal.policy.CallerInterrupted;
import dev.brace.runtime.internal.policy.DeadlinePolicy;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.spi.driver.DelegateCall;

/**
 * The deadline's part in one attempt's way through the {@link AttemptPipeline}: at admission the
 * deadline the call inherits is read (a passed one refuses the attempt), no limiter wait starts
 * whose token would come after it and no bulkhead wait outlasts it; once admitted, the attempt must
 * end by its timeout or by the deadline, whichever is earlier; while it runs, that bound (or the
 * retry's {@code maxDuration}, noted in the ticket when the call began, when earlier) is the current deadline, which the calls nested in it
 * inherit. An attempt the inherited deadline cuts short ends with {@link DeadlineExceededException},
 * which no breaker records.
 *
 * <p>Every instant here is on the registry's clock: the inherited deadline is converted once, at
 * admission. Immutable; the ticket carries what belongs to one attempt.
 */
final class DeadlineSteps {
  private final DeadlinePolicy policy;
  private final TimeoutPolicy timeout;
  /** The registry's clock. Instants are compared by their difference, so a far one never overflows. */
  private final TimeSource time;
  /** Whether the call is bounded by its caller's deadline; read on every attempt. */
  private final boolean inherits;

  DeadlineSteps(DeadlinePolicy policy, TimeoutPolicy timeout, TimeSource time) {
    this.policy = policy;
    this.inherits = policy.inherits();
    this.timeout = timeout;
    this.time = time;
  }

  /** @return whether an attempt starting now with this ticket is bounded by an inherited deadline */
  boolean bindsNow(AttemptTicket ticket) {
    return inherits && ticket.currentDeadline().present();
  }

  // ---- admission ----

  /**
   * Reads the deadline the attempt inherits, before anything is taken.
   *
   * @throws DeadlineExceededException when it has passed
   */
  void enter(AttemptTicket ticket) {
    ticket.inheritedEnd = NO_DEADLINE;
    if (!inherits) {
      return;
    }
    CurrentDeadline current = ticket.currentDeadline();
    if (!current.present()) {
      return;
    }
    long now = time.nanoTime();
    ticket.inheritedEnd = current.endOn(time, now);
    ticket.inheritedBudget = current.budgetNanos();
    if (ticket.inheritedEnd - now <= 0) {
      throw exceeded(ticket, now);
    }
  }

  /**
   * A token reserved for after the inherited deadline could not be used in time: it is given back
   * and the attempt refused at once, rather than after waiting in vain.
   *
   * @throws DeadlineExceededException when the reservation falls after the deadline
   */
  void checkToken(AttemptTicket ticket, RateLimiterInstance limiter, long reservation, long now) {
    if (ticket.inheritedEnd != NO_DEADLINE && reservation - ticket.inheritedEnd >= 0) {
      limiter.cancelReservation(reservation);
      throw exceeded(ticket, now);
    }
  }

  /**
   * @return nanoseconds left of the inherited deadline for a bulkhead wait, or {@link Long#MAX_VALUE}
   *     without one
   * @throws DeadlineExceededException when none is left
   */
  long waitLeft(AttemptTicket ticket) {
    if (ticket.inheritedEnd == NO_DEADLINE) {
      return Long.MAX_VALUE;
    }
    long now = time.nanoTime();
    long left = ticket.inheritedEnd - now;
    if (left <= 0) {
      throw exceeded(ticket, now);
    }
    return left;
  }

  /**
   * Waits on this thread for a permit of a full bulkhead, no longer than the inherited deadline
   * allows.
   *
   * @param steps the call's deadline steps, or null when it takes no part in deadlines
   * @throws DeadlineExceededException when the deadline ended the wait
   * @throws dev.brace.runtime.BulkheadFullException when {@code maxWait} did, or the wait was interrupted
   */
  static void acquire(DeadlineSteps steps, AttemptTicket ticket, SemaphoreBulkhead bulkhead, Criticality.Level criticality) {
    if (steps == null) {
      bulkhead.acquire(criticality);
    } else if (!bulkhead.acquireWithin(criticality, steps.waitLeft(ticket))) {
      throw steps.exceeded(ticket, steps.time.nanoTime());
    }
  }

  /** @return whether admission needs the clock read for the attempt's bound */
  boolean needsAdmissionTime(AttemptTicket ticket) {
    return ticket.inheritedEnd != NO_DEADLINE;
  }

  /**
   * Admitted at {@code ticket.admittedAt}: the attempt's bound is its timeout or the inherited
   * deadline, the earlier.
   *
   * @throws DeadlineExceededException when the waits used up the deadline
   */
  void admitted(AttemptTicket ticket) {
    if (ticket.inheritedEnd == NO_DEADLINE && (timeout == null || ticket.admittedAt == AttemptTicket.UNTIMED)) {
      // No bound at all: the ticket's end is already none.
      return;
    }
    long own = timeout == null || ticket.admittedAt == AttemptTicket.UNTIMED
        ? NO_DEADLINE
        : ticket.admittedAt + timeout.nanos();
    long inherited = ticket.inheritedEnd;
    if (inherited != NO_DEADLINE && inherited - ticket.admittedAt <= 0) {
      throw exceeded(ticket, ticket.admittedAt);
    }
    if (inherited != NO_DEADLINE && (own == NO_DEADLINE || inherited - own < 0)) {
      ticket.end = inherited;
      ticket.endInherited = true;
    } else {
      ticket.end = own;
      ticket.endInherited = false;
    }
  }

  // ---- the attempt ----

  /**
   * Makes the attempt's bound the current deadline of this thread, for the calls nested in it: its
   * own end, or the retry's {@code maxDuration} when that comes first; none at all when the call
   * ignores its caller's deadline and has no bound of its own.
   *
   * @return the thread's deadline to {@link CurrentDeadline#pop() pop} after the attempt, or null
   *     when nothing was set
   */
  CurrentDeadline publish(AttemptTicket ticket) {
    long end = ticket.end;
    if (end == NO_DEADLINE && ticket.callEnd == NO_DEADLINE && inherits) {
      // Nothing to pass on, and the caller's deadline (if any) goes on binding the nested calls.
      return null;
    }
    long budget = ticket.endInherited ? ticket.inheritedBudget : (timeout == null ? 0 : timeout.nanos());
    if (ticket.callEnd != NO_DEADLINE && (end == NO_DEADLINE || ticket.callEnd - end < 0)) {
      end = ticket.callEnd;
      budget = ticket.callBudget;
    }
    if (end == NO_DEADLINE) {
      if (inherits) {
        return null;
      }
      // A call that must finish: the calls nested in it must not be cut short by its caller's deadline.
      CurrentDeadline current = ticket.currentDeadline();
      if (!current.present()) {
        return null;
      }
      current.pushNone();
      return current;
    }
    CurrentDeadline current = ticket.currentDeadline();
    current.push(time, end, budget);
    return current;
  }

  /**
   * Runs a synchronous attempt under its bound: its own timeout, or the inherited deadline (with the
   * call's timeout's mode, else by interrupting the caller's thread).
   *
   * @throws Throwable what it threw; {@link TimeoutExceededException} when its own timeout expired
   *     (also when a nested call ran out of the bound this attempt passed on); {@link
   *     DeadlineExceededException} when the inherited deadline cut it short
   */
  Object invoke(AttemptTicket ticket, DelegateCall attempt) throws Throwable {
    CurrentDeadline published = publish(ticket);
    try {
      if (ticket.end == NO_DEADLINE) {
        return attempt.call();
      }
      if (!ticket.endInherited) {
        try {
          return timeout.call(attempt, ticket.admittedAt);
        } catch (DeadlineExceededException nested) {
          throw judged(ticket, nested);
        }
      }
      return untilInherited(ticket, attempt);
    } finally {
      if (published != null) {
        published.pop();
      }
    }
  }

  private Object untilInherited(AttemptTicket ticket, DelegateCall attempt) throws Throwable {
    TimeoutPolicy timer = timeout != null ? timeout : policy.timer();
    try {
      return timer.callUntil(attempt, ticket.end, ticket.inheritedBudget, policy);
    } catch (DeadlineExceededException | CallerInterrupted | Error passOn) {
      throw passOn;
    } catch (Throwable failure) {
      long now = time.nanoTime();
      if (now - ticket.end < 0) {
        throw failure;
      }
      // Ended past the deadline by another's doing (an outer call's timeout interrupting this
      // thread): the caller ran out of time, whatever the attempt ended with.
      DeadlineExceededException exceeded = exceeded(ticket, now);
      exceeded.addSuppressed(failure);
      throw exceeded;
    }
  }

  /**
   * Calls an asynchronous attempt's delegate with the attempt's bound as the current deadline.
   *
   * @return the delegate's future
   * @throws Throwable what the delegate threw before returning one
   */
  Object launch(AttemptTicket ticket, DelegateCall attempt) throws Throwable {
    CurrentDeadline published = publish(ticket);
    try {
      return attempt.call();
    } finally {
      if (published != null) {
        published.pop();
      }
    }
  }

  /** @return nanoseconds from now the asynchronous attempt may take, or -1 when it is unbounded */
  long attemptNanos(AttemptTicket ticket) {
    if (ticket.end == NO_DEADLINE) {
      return -1;
    }
    if (!ticket.endInherited) {
      return timeout.nanos();
    }
    return Math.max(0, ticket.end - time.nanoTime());
  }

  /** @return the failure of an asynchronous attempt whose bound passed first */
  TimeoutExceededException timedOut(AttemptTicket ticket) {
    return ticket.endInherited ? exceeded(ticket, time.nanoTime()) : timeout.exceeded();
  }

  /**
   * A call nested in an attempt under its own timeout ran out of the bound the attempt passed on:
   * that is the attempt's own timeout, reached first by the nested call, and the breaker counts it.
   *
   * @return the failure the attempt ends with
   */
  Throwable judged(AttemptTicket ticket, Throwable failure) {
    if (failure instanceof DeadlineExceededException && timeout != null && !ticket.endInherited
        && ticket.end != NO_DEADLINE && passedOn((DeadlineExceededException) failure, ticket.end)) {
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

  private DeadlineExceededException exceeded(AttemptTicket ticket, long now) {
    return policy.exceeded(ticket.inheritedEnd, ticket.inheritedBudget, now);
  }
}
