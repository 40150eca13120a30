package dev.brace.runtime.internal.context;

import dev.brace.runtime.Deadline;
import dev.brace.runtime.TimeSource;
import java.time.Duration;
import java.util.Arrays;

/**
 * The deadline the code running on one thread is under, if any: one opened with {@link Deadline},
 * one restored with a caller's {@link CallContext} on another thread, or the bound a Brace call
 * sets while its attempts run. Settings nest: {@link #push} saves what was current and {@link
 * #pop} puts it back, so a call made inside another's attempt sees the inner bound and its caller
 * sees its own again afterwards.
 *
 * <p>Mutable and confined to its thread, so that a call setting its bound for an attempt allocates
 * nothing: the current deadline is held as its clock, its instant on that clock and its length,
 * and a {@link Deadline} object is made only when someone asks for one ({@link #deadline()}, a
 * context captured for another thread).
 */
public final class CurrentDeadline {
  private static final ThreadLocal<CurrentDeadline> THREADS = ThreadLocal.withInitial(CurrentDeadline::new);

  /** The clock of the current deadline; null when there is none. */
  private TimeSource clock;
  /** Its instant, on {@link #clock}. */
  private long at;
  /** How long it was when it was set, for reports. */
  private long budgetNanos;
  /** The object for it, when one exists; made on demand otherwise. */
  private Deadline object;

  /** What {@link #push} saved, innermost last; made on the first push of the thread. */
  private TimeSource[] savedClocks;
  private long[] savedAts;
  private long[] savedBudgets;
  private Deadline[] savedObjects;
  private int depth;

  private CurrentDeadline() {}

  /** @return the current thread's deadline, which this thread alone reads and changes */
  public static CurrentDeadline ofThisThread() {
    return THREADS.get();
  }

  /** @return whether the thread is under a deadline */
  public boolean present() {
    return clock != null;
  }

  /** @return the clock of the current deadline; null when there is none */
  public TimeSource clock() {
    return clock;
  }

  /** @return the current deadline's length when it was set */
  public long budgetNanos() {
    return budgetNanos;
  }

  /**
   * @param on a clock
   * @param now its reading, just taken
   * @return the current deadline as an instant of {@code on}: exactly its own instant on the same
   *     clock, else converted through what remains of it now; only when {@link #present()}
   */
  public long endOn(TimeSource on, long now) {
    return clock == on ? at : now + (at - clock.nanoTime());
  }

  /** @return the current deadline as an object, made now if it had none; null when there is none */
  public Deadline deadline() {
    if (clock != null && object == null) {
      object = Deadline.at(at, Duration.ofNanos(budgetNanos), clock);
    }
    return object;
  }

  /**
   * Makes a deadline current, saving what was.
   *
   * @param on its clock
   * @param instant its instant on that clock
   * @param budget its length when set, in nanoseconds
   */
  public void push(TimeSource on, long instant, long budget) {
    save();
    clock = on;
    at = instant;
    budgetNanos = budget;
    object = null;
  }

  /** Makes {@code deadline} current, saving what was; null makes none current. */
  public void push(Deadline deadline) {
    save();
    set(deadline);
  }

  /** Puts back what the innermost {@link #push} saved. */
  public void pop() {
    if (depth == 0) {
      throw new IllegalStateException("no deadline was set on this thread to end");
    }
    depth--;
    clock = savedClocks[depth];
    at = savedAts[depth];
    budgetNanos = savedBudgets[depth];
    object = savedObjects[depth];
    savedClocks[depth] = null;
    savedObjects[depth] = null;
  }

  /** @return how many settings are nested now; a scope checks it is closed where it was opened */
  public int depth() {
    return depth;
  }

  private void set(Deadline deadline) {
    if (deadline == null) {
      clock = null;
      at = 0;
      budgetNanos = 0;
      object = null;
    } else {
      clock = deadline.clock();
      at = deadline.nanoTime();
      budgetNanos = saturated(deadline.budget());
      object = deadline;
    }
  }

  private void save() {
    if (savedClocks == null) {
      savedClocks = new TimeSource[4];
      savedAts = new long[4];
      savedBudgets = new long[4];
      savedObjects = new Deadline[4];
    } else if (depth == savedClocks.length) {
      savedClocks = Arrays.copyOf(savedClocks, depth * 2);
      savedAts = Arrays.copyOf(savedAts, depth * 2);
      savedBudgets = Arrays.copyOf(savedBudgets, depth * 2);
      savedObjects = Arrays.copyOf(savedObjects, depth * 2);
    }
    savedClocks[depth] = clock;
    savedAts[depth] = at;
    savedBudgets[depth] = budgetNanos;
    savedObjects[depth] = object;
    depth++;
  }

  /** A duration in nanoseconds, saturated rather than overflowing. */
  private static long saturated(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }
}
