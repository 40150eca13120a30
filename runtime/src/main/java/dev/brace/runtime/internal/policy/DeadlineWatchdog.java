package dev.brace.runtime.internal.policy;

import dev.brace.runtime.TimeSource;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Fires the {@link AttemptDeadline}s of one timeout: one task on the registry's scheduler, due at
 * the earliest armed deadline, instead of a scheduled task per attempt. Arming a deadline is then
 * a few writes on the caller's thread, and the scheduler (so a {@code ManualTimeSource} in tests)
 * still decides when a deadline passes.
 *
 * <p>Why one task due at the earliest deadline is enough: every deadline of one timeout is its
 * arming instant plus the same duration, so deadlines are armed in the order they fall due. A
 * deadline armed while the task is pending falls due no earlier than the one the task waits for,
 * and the task, when it runs, looks at every armed deadline and sets itself again for the
 * earliest one left. (An arm's clock read and its publication are not one step, so a thread
 * preempted between them publishes a deadline up to that pause earlier than one already seen:
 * it fires that much late, never early, never not at all.)
 *
 * <p>When no deadline is armed the task is not rescheduled and the watchdog is idle; the next arm
 * schedules it. The hand-over is a flag written and then the deadlines read again on one side, a
 * deadline written and then the flag read on the other, both volatile, so at least one side sees
 * the other: no armed deadline is left without a pending task.
 *
 * <p>Each thread's deadline is registered once; the list is pruned of ended threads as the task
 * walks it, so its length follows the threads alive that ever used this timeout.
 */
final class DeadlineWatchdog implements Runnable {
  /** No armed deadline. */
  static final long NONE = Long.MIN_VALUE;

  private final TimeSource time;
  private final ScheduledExecutorService scheduler;
  private final ConcurrentLinkedQueue<AttemptDeadline> deadlines = new ConcurrentLinkedQueue<>();
  /** True while a run of this task is scheduled or running. */
  private final AtomicBoolean pending = new AtomicBoolean();

  /**
   * @param time the registry's clock, which deadlines are instants of
   * @param scheduler where the task runs
   */
  DeadlineWatchdog(TimeSource time, ScheduledExecutorService scheduler) {
    this.time = time;
    this.scheduler = scheduler;
  }

  /** Adds a thread's deadline to those the task looks at. */
  void register(AttemptDeadline deadline) {
    deadlines.add(deadline);
  }

  /**
   * Called after a deadline was armed: schedules the task when the watchdog was idle.
   *
   * @param at the armed instant
   */
  void armed(long at) {
    if (!pending.get() && pending.compareAndSet(false, true)) {
      scheduleAt(at);
    }
  }

  @Override
  public void run() {
    long earliest = sweep();
    if (earliest == NONE) {
      pending.set(false);
      // An arm that saw the flag still set before this write relies on this second look.
      earliest = sweep();
      if (earliest == NONE || !pending.compareAndSet(false, true)) {
        return;
      }
    }
    scheduleAt(earliest);
  }

  /** Fires every deadline that has passed; forgets those of ended threads. @return the earliest still to come, or {@link #NONE} */
  private long sweep() {
    long now = time.nanoTime();
    long earliest = NONE;
    for (Iterator<AttemptDeadline> each = deadlines.iterator(); each.hasNext(); ) {
      AttemptDeadline deadline = each.next();
      long at = deadline.fireIfPassed(now);
      if (at != NONE) {
        if (earliest == NONE || at - earliest < 0) {
          earliest = at;
        }
      } else if (deadline.forgotten()) {
        each.remove();
      }
    }
    return earliest;
  }

  private void scheduleAt(long at) {
    try {
      scheduler.schedule(this, Math.max(0, at - time.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (RuntimeException rejected) {
      // A scheduler shut down (a test's, or the application's at exit): let the next arm try again.
      pending.set(false);
      throw rejected;
    }
  }
}
