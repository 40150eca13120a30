package dev.brace.runtime.internal.policy;

import dev.brace.runtime.TimeSource;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Fires the {@link InterruptAlarm}s of one timeout (each set for an attempt's deadline): one task
 * on the registry's scheduler, due at the earliest armed deadline, instead of a scheduled task per attempt. Arming a deadline is then
 * a few writes on the caller's thread, and the scheduler (so a {@code ManualTimeSource} in tests)
 * still decides when a deadline passes.
 *
 * <p>Why one task due at the earliest deadline is enough: every deadline a timeout arms for its
 * own duration is its arming instant plus the same duration, so such deadlines are armed in the
 * order they fall due. A deadline armed while the task is pending and falling due no earlier than
 * the task is seen when the task runs, which looks at every armed deadline and sets itself again
 * for the earliest one left. A deadline that falls due earlier than the pending task — one
 * shortened by a caller's deadline, which may be armed in any order — takes the slow path: under
 * a lock, the pending task is replaced by one due at it. Each task knows its generation, and only
 * the current one reschedules, so there is never more than one chain of tasks.
 *
 * <p>When no deadline is armed the task is not rescheduled and the watchdog is idle; the next arm
 * schedules it. The hand-over is a flag written and then the deadlines read again on one side, a
 * deadline written and then the flag read on the other, both volatile, so at least one side sees
 * the other: no armed deadline is left without a pending task.
 *
 * <p>Each thread's deadline is registered once; the list is pruned of ended threads as the task
 * walks it, so its length follows the threads alive that ever used this timeout.
 */
final class AlarmWatchdog {
  /** No armed deadline. */
  static final long NONE = Long.MIN_VALUE;

  private final TimeSource time;
  private final ScheduledExecutorService scheduler;
  private final ConcurrentLinkedQueue<InterruptAlarm> deadlines = new ConcurrentLinkedQueue<>();
  /** True while a run of the task is scheduled or running. */
  private volatile boolean pending;
  /** When the pending task is due; meaningful only while {@link #pending}, and written under {@link #lock}. */
  private volatile long dueAt;
  /** Guards the scheduling: which task is current, and when it is due. */
  private final ReentrantLock lock = new ReentrantLock();
  /** Bumped by every task scheduled; a task of an older generation ends without rescheduling. */
  private long generation;
  private ScheduledFuture<?> task;
  /** True while the current task sweeps; an arm meanwhile leaves its instant in {@link #armedWhileRunning}. */
  private volatile boolean running;
  private long armedWhileRunning = NONE;

  /**
   * @param time the registry's clock, which deadlines are instants of
   * @param scheduler where the task runs
   */
  AlarmWatchdog(TimeSource time, ScheduledExecutorService scheduler) {
    this.time = time;
    this.scheduler = scheduler;
  }

  /** Adds a thread's deadline to those the task looks at. */
  void register(InterruptAlarm deadline) {
    deadlines.add(deadline);
  }

  /** @return how many deadlines the task looks at: one per thread alive that used this timeout, and nested attempts' not yet forgotten */
  int watched() {
    return deadlines.size();
  }

  /**
   * Called after a deadline was armed: schedules the task when the watchdog was idle, or earlier
   * when this deadline falls due before the pending task.
   *
   * @param at the armed instant
   */
  void armed(long at) {
    if (pending && !running && at - dueAt >= 0) {
      return;
    }
    lock.lock();
    try {
      if (running) {
        // The run under way sets the next task for the earliest of what it finds and this.
        if (armedWhileRunning == NONE || at - armedWhileRunning < 0) {
          armedWhileRunning = at;
        }
        return;
      }
      if (pending && at - dueAt >= 0) {
        return;
      }
      if (task != null) {
        // Falls due before the pending task: that one is replaced.
        task.cancel(false);
      }
      scheduleAt(at);
    } finally {
      lock.unlock();
    }
  }

  /** Under the lock: makes a task due at {@code at} the current one. */
  private void scheduleAt(long at) {
    long mine = ++generation;
    dueAt = at;
    pending = true;
    try {
      task = scheduler.schedule(() -> run(mine), Math.max(0, at - time.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (RuntimeException rejected) {
      // A scheduler shut down (a test's, or the application's at exit): let the next arm try again.
      pending = false;
      task = null;
      throw rejected;
    }
  }

  /** Looks at every deadline now, as the pending task does when it falls due, and takes its place. */
  void run() {
    long current;
    lock.lock();
    try {
      current = generation;
    } finally {
      lock.unlock();
    }
    run(current);
  }

  private void run(long mine) {
    lock.lock();
    try {
      if (mine != generation) {
        // Replaced by a task due earlier, which looks at every deadline.
        return;
      }
      running = true;
    } finally {
      lock.unlock();
    }
    long earliest = NONE;
    try {
      earliest = sweep();
    } finally {
      lock.lock();
      try {
        running = false;
        if (armedWhileRunning != NONE && (earliest == NONE || armedWhileRunning - earliest < 0)) {
          earliest = armedWhileRunning;
        }
        armedWhileRunning = NONE;
        if (earliest != NONE) {
          scheduleAt(earliest);
        } else {
          pending = false;
          task = null;
        }
      } finally {
        lock.unlock();
      }
    }
    if (earliest != NONE) {
      return;
    }
    // An arm that saw the flag still set before this write relies on this second look.
    earliest = sweep();
    if (earliest != NONE) {
      armed(earliest);
    }
  }

  /** Fires every deadline that has passed; forgets those of ended threads. @return the earliest still to come, or {@link #NONE} */
  private long sweep() {
    long now = time.nanoTime();
    long earliest = NONE;
    for (Iterator<InterruptAlarm> each = deadlines.iterator(); each.hasNext(); ) {
      InterruptAlarm deadline = each.next();
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
}
