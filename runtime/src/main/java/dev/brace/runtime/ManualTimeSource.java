package dev.brace.runtime;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A clock that moves only when told, for deterministic tests of Brace and of code that uses it.
 *
 * <p>{@link #advance(Duration)} moves time forward and runs, on the calling thread and in time
 * order, every task of {@link #scheduler()} that falls due on the way. {@link #sleep(Duration)}
 * does the same for the sleeping thread and returns at once, so a retry's backoff or a limiter's
 * wait costs no real time. A sleep that is interrupted on the way (for example by a timeout task
 * falling due) stops at that instant and throws {@link InterruptedException}, as a real sleep
 * would.
 *
 * <p>Thread-safe. Give it to {@code Registry.builder().timeSource(...)}; the registry then also
 * uses its scheduler unless given another.
 */
public final class ManualTimeSource implements TimeSource {

  private final ManualScheduler scheduler = new ManualScheduler(this);
  private final Object lock = new Object();
  private long now;

  /** Starts at an arbitrary instant (1 second), like {@link System#nanoTime()} does. */
  public ManualTimeSource() {
    this.now = 1_000_000_000L;
  }

  @Override
  public long nanoTime() {
    synchronized (lock) {
      return now;
    }
  }

  /**
   * Moves time forward by {@code duration}, running each task that falls due on the way at its
   * due time.
   *
   * @param duration how far; not negative
   * @throws IllegalArgumentException when {@code duration} is negative
   * @throws NullPointerException when {@code duration} is null
   */
  public void advance(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("duration must not be negative: " + duration);
    }
    moveTo(nanoTime() + duration.toNanos(), false);
  }

  /**
   * Advances time by {@code duration} and returns at once.
   *
   * @throws InterruptedException when the thread is (or becomes, through a task that falls due)
   *     interrupted; time then stays at the moment of the interrupt
   */
  @Override
  public void sleep(Duration duration) throws InterruptedException {
    Objects.requireNonNull(duration, "duration");
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    if (duration.isNegative() || duration.isZero()) {
      return;
    }
    if (!moveTo(nanoTime() + duration.toNanos(), true)) {
      Thread.interrupted();
      throw new InterruptedException();
    }
  }

  /**
   * Runs the tasks due now (delay zero or already past) without moving time.
   */
  public void runDueTasks() {
    moveTo(nanoTime(), false);
  }

  /**
   * @return a scheduler whose delays are measured on this clock; its tasks run on the thread that
   *     advances time
   */
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** Moves time to {@code target}; returns false when stopped early by an interrupt. */
  private boolean moveTo(long target, boolean stopOnInterrupt) {
    while (true) {
      ManualScheduler.Task next = scheduler.pollDue(target);
      if (next == null) {
        synchronized (lock) {
          if (now < target) {
            now = target;
          }
        }
        return true;
      }
      synchronized (lock) {
        if (now < next.dueNanos()) {
          now = next.dueNanos();
        }
      }
      next.run();
      if (stopOnInterrupt && Thread.currentThread().isInterrupted()) {
        return false;
      }
    }
  }

  @Override
  public String toString() {
    return "ManualTimeSource[" + Durations.describe(Duration.ofNanos(nanoTime())) + "]";
  }
}
