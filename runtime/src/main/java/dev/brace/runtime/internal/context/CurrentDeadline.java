package dev.brace.runtime.internal.context;

import dev.brace.runtime.TimeSource;
import java.time.Duration;
import java.util.Arrays;

/**
 * The deadline the code running on one thread is under, if any: one opened with {@code Deadline},
 * one restored with a caller's {@link CallContext} on another thread, or the bound a Brace call
 * sets while its attempts run. Settings nest: {@link #push} saves what was current and {@link
 * #pop} puts it back, so a call made inside another's attempt sees the inner bound and its caller
 * sees its own again afterwards.
 *
 * <p>Mutable and confined to its thread, so that a call setting its bound for an attempt allocates
 * nothing: the current deadline is held as its clock, its instant on that clock and its length,
 * and a {@code Deadline} object is made only when someone asks for one ({@code Deadline.current()},
 * a context captured for another thread), and kept here ({@link #made()}) as an object this slot
 * does not look into, so that the API type reads the slot and the slot does not depend on it.
 */
public final class CurrentDeadline {
  private static final ThreadLocal<CurrentDeadline> THREADS = ThreadLocal.withInitial(CurrentDeadline::new);

  /** The clock of the current deadline; null when there is none. */
  private TimeSource clock;
  /** Its instant, on {@link #clock}. */
  private long at;
  /** How long it was when it was set, for reports. */
  private long budgetNanos;
  /** The API's object for it ({@code Deadline}), when one exists; made on demand otherwise. */
  private Object made;

  /** What {@link #push} saved, innermost last; made on the first push of the thread. */
  private TimeSource[] savedClocks;
  private long[] savedAts;
  private long[] savedBudgets;
  private Object[] savedMade;
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

  /** @return the current deadline's instant on its {@link #clock()}; only when {@link #present()} */
  public long end() {
    return at;
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

  /** @return the API's object for the current deadline, or null when none was made (or there is no deadline) */
  public Object made() {
    return made;
  }

  /** Keeps the API's object for the current deadline, made on demand; only when {@link #present()}. */
  public void made(Object object) {
    made = object;
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
    made = null;
  }

  /**
   * Makes a deadline the API holds as an object current, saving what was.
   *
   * @param on its clock
   * @param instant its instant on that clock
   * @param budget its length when set
   * @param object the API's object for it, returned as it is while it is current
   */
  public void push(TimeSource on, long instant, Duration budget, Object object) {
    save();
    clock = on;
    at = instant;
    budgetNanos = saturated(budget);
    made = object;
  }

  /** Makes no deadline current, saving what was. */
  public void pushNone() {
    save();
    clock = null;
    at = 0;
    budgetNanos = 0;
    made = null;
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
    made = savedMade[depth];
    savedClocks[depth] = null;
    savedMade[depth] = null;
  }

  /** @return how many settings are nested now; a scope checks it is closed where it was opened */
  public int depth() {
    return depth;
  }

  private void save() {
    if (savedClocks == null) {
      savedClocks = new TimeSource[4];
      savedAts = new long[4];
      savedBudgets = new long[4];
      savedMade = new Object[4];
    } else if (depth == savedClocks.length) {
      savedClocks = Arrays.copyOf(savedClocks, depth * 2);
      savedAts = Arrays.copyOf(savedAts, depth * 2);
      savedBudgets = Arrays.copyOf(savedBudgets, depth * 2);
      savedMade = Arrays.copyOf(savedMade, depth * 2);
    }
    savedClocks[depth] = clock;
    savedAts[depth] = at;
    savedBudgets[depth] = budgetNanos;
    savedMade[depth] = made;
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
