package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.Refusal;
import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.policy.HedgePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bookkeeping of one hedged group of attempts, the same for both drivers: which attempts have
 * started, which are still pending, what failed, and who decided. Each decision is the {@link
 * HedgePolicy}'s; this class only keeps count and acts on the answer. The drivers differ only in
 * how an attempt runs ({@link SyncHedgeGroup}: on a worker thread, stopped by an interrupt; {@link
 * AsyncHedgeGroup}: as a further call of the delegate, stopped by cancelling its future).
 *
 * <p>Attempt 1 starts with the group; attempt n + 1 starts when the hedge's delay has passed since
 * attempt n started, or at once when an attempt fails with a failure the hedge answers, as long as
 * the budget allows and attempts remain. The first attempt that returns, or fails with a failure
 * the hedge does not answer, decides: the group is told so ({@link #decided}) and every other
 * attempt still running is stopped. An attempt the breaker, limiter or bulkhead refuses (or that
 * finds no thread) is not started and decides nothing; when nothing is left pending the group ends
 * with the last failure, every other one attached as suppressed, in the order they happened.
 *
 * <p>Thread-safe: outcomes arrive on worker threads, completing threads and the scheduler at once.
 * The counters are guarded by one lock, held only to read and write them, never across a call out
 * (an attempt's start or stop, an event, the future's completion).
 *
 * @param <T> the attempts' value type
 */
abstract class HedgeGroup<T> {
  /** One attempt of a group, created before it begins so that it can be stopped from its first instant. */
  interface Attempt {
    /** Runs the attempt, or starts it elsewhere; reports its outcome and its end to the group. */
    void begin();

    /** Stops the attempt if it is still running; it ends soon after, releasing what it holds. */
    void stop();
  }

  final CallPolicies policies;
  final HedgePolicy hedge;
  /** The caller's context: attempts and the hedge's timer run in it, off the caller's thread. */
  final CallContext context;
  private final ReentrantLock lock = new ReentrantLock();
  /** Signalled when no attempt is live; only for a group whose caller waits for that, else null. */
  private final Condition allEnded;
  /** Guarded by {@link #lock}, like every field below; indexed by attempt number, from 1. */
  private final Attempt[] attempts;
  private final boolean[] ended;
  private int launched;
  /** Admitted by the breaker, limiter and bulkhead: the attempts that really started. */
  private int started;
  /** Launched and with no outcome yet. */
  private int pending;
  /** Launched and not yet ended: a synchronous caller waits for none left. */
  private int live;
  private boolean over;
  private boolean noMoreHedges;
  private ScheduledFuture<?> timer;
  /** {@link #launchNext} in the caller's context, made when the first timer is armed. */
  private Runnable launchLater;
  /** Failures and refusals so far, in order; created on the first. */
  private List<Throwable> failures;

  /**
   * @param waitsForEveryEnd whether the caller {@linkplain #awaitEnded waits} until every attempt
   *     has ended, as a synchronous caller does before it returns
   */
  HedgeGroup(CallPolicies policies, CallContext context, boolean waitsForEveryEnd) {
    this.allEnded = waitsForEveryEnd ? lock.newCondition() : null;
    this.policies = policies;
    this.hedge = policies.hedge();
    this.context = context;
    this.attempts = new Attempt[hedge.maxAttempts() + 1];
    this.ended = new boolean[hedge.maxAttempts() + 1];
  }

  /** @return attempt {@code number}, not begun yet */
  abstract Attempt create(int number);

  /**
   * The group is decided: by an attempt's result, its deciding failure, or the failure the whole
   * group ends with. Told once, outside the lock, and never after {@link #cancel}.
   *
   * @param value the deciding result, when {@code failure} is null
   * @param failure what the group ended with, or null
   */
  abstract void decided(T value, Throwable failure);

  /** Starts the group: a deposit into the budget, if it has one, then attempt 1. */
  final void start() {
    hedge.begin();
    launchNext();
  }

  /**
   * Starts the next attempt, if the group is still undecided, attempts remain and the budget allows
   * a hedge; with a delay of zero, every remaining one.
   */
  private void launchNext() {
    while (true) {
      int number;
      Attempt attempt = null;
      boolean exhausted = false;
      Throwable endWith = null;
      lock.lock();
      try {
        if (over || noMoreHedges || launched == attempts.length - 1) {
          return;
        }
        number = launched + 1;
        if (number > 1 && !hedge.withdraw()) {
          noMoreHedges = true;
          exhausted = true;
          if (pending == 0) {
            endWith = end();
          }
        } else {
          launched = number;
          pending++;
          live++;
          attempt = create(number);
          attempts[number] = attempt;
          armTimer(number);
        }
      } finally {
        lock.unlock();
      }
      if (exhausted) {
        hedge.budgetExhausted(number);
        if (endWith != null) {
          decided(null, endWith);
        }
        return;
      }
      attempt.begin();
      if (hedge.delayNanos() > 0) {
        return;
      }
    }
  }

  /** Waits the hedge's delay for the attempt after {@code number}, replacing the wait for this one. */
  private void armTimer(int number) {
    disarmTimer();
    if (number < attempts.length - 1 && hedge.delayNanos() > 0) {
      if (launchLater == null) {
        // The next hedge starts on the scheduler's thread: it, and the events it emits, belong to the caller.
        launchLater = context.wrap(this::launchNext);
      }
      try {
        timer = policies.scheduler().schedule(launchLater, hedge.delayNanos(), TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException schedulerShutDown) {
        // Nothing can be timed any more: the attempts already started still decide the group.
        noMoreHedges = true;
      }
    }
  }

  // ---- what attempts report ----

  /**
   * Attempt {@code number} passed the breaker, limiter and bulkhead.
   *
   * @return false when the group is already over: the attempt must not reach the delegate
   */
  final boolean admitted(int number) {
    lock.lock();
    try {
      if (over) {
        return false;
      }
      started++;
    } finally {
      lock.unlock();
    }
    if (number > 1) {
      hedge.started(number);
    }
    return true;
  }

  /**
   * Attempt {@code number} never reached the delegate. A refusal, or no thread to run it on, means
   * it did not start, which decides nothing; anything else is its failure.
   */
  final void notAdmitted(int number, Throwable reason) {
    Throwable cause = ExceptionFilter.unwrap(reason);
    if (!(cause instanceof Refusal) && !(cause instanceof RejectedExecutionException)) {
      failed(number, reason);
      return;
    }
    Throwable endWith = null;
    lock.lock();
    try {
      if (over) {
        return;
      }
      pending--;
      record(cause);
      // Another attempt would meet the same refusal: with nothing left pending, the group ends.
      if (pending == 0) {
        endWith = end();
      }
    } finally {
      lock.unlock();
    }
    if (endWith != null) {
      decided(null, endWith);
    }
  }

  /** Attempt {@code number} returned {@code value}: it decides. */
  final void succeeded(int number, T value) {
    List<Attempt> losers;
    int startedSoFar;
    lock.lock();
    try {
      if (over) {
        return;
      }
      pending--;
      losers = decide(number);
      startedSoFar = started;
    } finally {
      lock.unlock();
    }
    stopAll(losers);
    if (startedSoFar > 1) {
      hedge.won(number, startedSoFar);
    }
    decided(value, null);
  }

  /** Attempt {@code number} reached the delegate and failed. */
  final void failed(int number, Throwable failure) {
    boolean fatal = ExceptionFilter.unwrap(failure) instanceof Error;
    boolean hedgeNow = false;
    List<Attempt> losers = null;
    Throwable endWith = null;
    int startedSoFar;
    lock.lock();
    try {
      if (over) {
        return;
      }
      pending--;
      startedSoFar = started;
      if (!hedge.hedgesAfter(failure)) {
        // An Error leaves as it came, as everywhere; any other deciding failure carries the earlier ones.
        if (!fatal) {
          attachTo(failure);
        }
        losers = decide(number);
        endWith = failure;
      } else {
        record(failure);
        if (!noMoreHedges && launched < attempts.length - 1) {
          hedgeNow = true;
        } else if (pending == 0) {
          endWith = end();
        }
      }
    } finally {
      lock.unlock();
    }
    if (hedgeNow) {
      launchNext();
      return;
    }
    if (losers != null) {
      stopAll(losers);
      if (startedSoFar > 1 && !fatal) {
        hedge.won(number, startedSoFar);
      }
    }
    if (endWith != null) {
      decided(null, endWith);
    }
  }

  /** Attempt {@code number} has ended: it holds nothing any more and its thread, if any, is free. */
  final void ended(int number) {
    lock.lock();
    try {
      ended[number] = true;
      live--;
      if (live == 0 && allEnded != null) {
        allEnded.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** The caller gave up: every attempt is stopped, no further one starts. */
  final void cancel() {
    List<Attempt> running;
    lock.lock();
    try {
      if (over) {
        return;
      }
      running = decide(0);
    } finally {
      lock.unlock();
    }
    stopAll(running);
  }

  /** Waits, without answering interrupts, until every attempt launched has ended. */
  final void awaitEnded() {
    if (allEnded == null) {
      throw new IllegalStateException("this hedged group was made for a caller that does not wait for its attempts");
    }
    lock.lock();
    try {
      while (live > 0) {
        allEnded.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
  }

  // ---- under the lock ----

  /** Ends the group for attempt {@code winner} (0: for nobody): @return the other attempts still running. */
  private List<Attempt> decide(int winner) {
    over = true;
    disarmTimer();
    List<Attempt> others = List.of();
    for (int number = 1; number <= launched; number++) {
      if (number != winner && !ended[number]) {
        if (others.isEmpty()) {
          others = new ArrayList<>(launched);
        }
        others.add(attempts[number]);
      }
    }
    return others;
  }

  /** Ends the group with nothing pending: @return the last failure, every other one attached. */
  private Throwable end() {
    over = true;
    disarmTimer();
    Throwable last = null;
    for (Throwable failure : failures) {
      if (!(failure instanceof Refusal) || last == null || last instanceof Refusal) {
        last = failure;
      }
    }
    // A failure of the dependency outranks a refusal: it is what a retry around the group judges.
    attachTo(last);
    return last;
  }

  private void disarmTimer() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  private void record(Throwable failure) {
    if (failures == null) {
      failures = new ArrayList<>(attempts.length);
    }
    failures.add(failure);
  }

  private void attachTo(Throwable last) {
    if (failures != null) {
      for (Throwable earlier : failures) {
        if (earlier != last) {
          last.addSuppressed(earlier);
        }
      }
    }
  }

  private static void stopAll(List<Attempt> attempts) {
    for (Attempt attempt : attempts) {
      attempt.stop();
    }
  }
}
