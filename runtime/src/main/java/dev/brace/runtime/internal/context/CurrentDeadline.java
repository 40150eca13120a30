package dev.brace.runtime.internal.context;

import dev.brace.runtime.TimeSource;
import java.util.Arrays;

/**
 * The deadline the code running on one thread is under, if any: one opened with {@code Deadline},
 * one restored with a caller's {@link CallContext} on another thread, or the bound a Brace call's
 * attempt passes on while it runs. Settings nest: {@link #push} saves what was current and {@link
 * #pop} puts it back, so a call made inside another's attempt sees the inner bound and its caller
 * sees its own again afterwards.
 *
 * <p>An attempt's bound is not pushed: the attempt lays what it {@linkplain PassedOn passes on}
 * over what was pushed ({@link #passOn}) and takes it off when it ends ({@link #stopPassingOn}):
 * a flag written twice, and no copy. Its instant is read from it only when a call nested
 * in the attempt asks. A push made while an attempt passes its bound on saves it with the rest.
 *
 * <p>Mutable and confined to its thread: the current deadline is held as its clock, its instant on
 * that clock and its length. The API's object for it is made only when someone asks for one, by
 * the API, and kept here ({@link #made()}) as an object this slot does not look into: the API
 * reads the slot, the slot does not depend on the API.
 */
public final class CurrentDeadline {
  private static final ThreadLocal<CurrentDeadline> THREADS = ThreadLocal.withInitial(CurrentDeadline::new);

  /**
   * Whether any thread has set a deadline here yet. Until one does, no thread needs to look its
   * slot up, which a call would otherwise pay for on every attempt. Plain, not volatile: a thread
   * writes it before it changes its own slot, so it always reads back its own write; a thread
   * that never set one may read either value, and its slot holds none. Written once, not on each
   * set: threads that set deadlines all the time would otherwise contend for its cache line.
   */
  private static boolean anySet;

  /**
   * The bound an attempt passes on to the calls nested in it while it runs on this thread, read
   * only then: its values must not change while it is {@linkplain #passOn laid over} the slot.
   */
  public interface PassedOn {
    /** @return the clock of the bound; null to pass on no deadline at all (a call that must finish) */
    TimeSource passedOnClock();

    /** @return the bound's instant on {@link #passedOnClock()} */
    long passedOnEnd();

    /** @return the bound's length when it was set, in nanoseconds */
    long passedOnBudget();
  }

  /** The clock of the current pushed deadline; null when there is none. */
  private TimeSource clock;
  /** Its instant, on {@link #clock}. */
  private long at;
  /** How long it was when it was set, for reports. */
  private long budgetNanos;
  /** The API's object for it ({@code Deadline}), when one exists; made on demand otherwise. */
  private Object made;
  /**
   * The bound of the attempt running now, over what was pushed, while {@link #passing}. Kept after
   * the attempt ends, so that the next attempt with the same attempt's state (a synchronous call's frame
   * reuses it) need not write it again: a reference store into this long-lived object costs a
   * garbage collector's barrier, the flag does not.
   */
  private PassedOn passedOn;
  private boolean passing;

  /** What {@link #push} saved, innermost last; made on the first push of the thread. */
  private TimeSource[] savedClocks;
  private long[] savedAts;
  private long[] savedBudgets;
  private Object[] savedMade;
  private PassedOn[] savedPassedOn;
  private int depth;

  /**
   * The scope {@link CallContext#restore} returns on this thread when the deadline is all it
   * installs (no MDC, no span, no accessor): closing it only pops, so one per thread serves every
   * such restore, nested or not, and restoring a caller's empty context allocates nothing.
   */
  CallContext.Scope deadlineOnly;

  private CurrentDeadline() {}

  /** @return the current thread's deadline, which this thread alone reads and changes */
  public static CurrentDeadline ofThisThread() {
    return THREADS.get();
  }

  /** @return whether the current thread is under a deadline, its slot looked up only once any thread set one */
  public static boolean presentOnThisThread() {
    return anySet && THREADS.get().present();
  }

  /** @return whether the thread is under a deadline */
  public boolean present() {
    return passing ? passedOn.passedOnClock() != null : clock != null;
  }

  /** @return the clock of the current deadline; null when there is none */
  public TimeSource clock() {
    return passing ? passedOn.passedOnClock() : clock;
  }

  /** @return the current deadline's length when it was set */
  public long budgetNanos() {
    return passing ? passedOn.passedOnBudget() : budgetNanos;
  }

  /** @return the current deadline's instant on its {@link #clock()}; only when {@link #present()} */
  public long end() {
    return passing ? passedOn.passedOnEnd() : at;
  }

  /**
   * @param on a clock
   * @param now its reading, just taken
   * @return the current deadline as an instant of {@code on}: exactly its own instant on the same
   *     clock, else converted through what remains of it now; only when {@link #present()}
   */
  public long endOn(TimeSource on, long now) {
    TimeSource its = clock();
    long end = end();
    return its == on ? end : now + (end - its.nanoTime());
  }

  /**
   * @return the API's object for the current deadline, or null when none was made, there is no
   *     deadline, or it is an attempt's bound (made afresh on each ask, as the attempt keeps none)
   */
  public Object made() {
    return passing ? null : made;
  }

  /** Keeps the API's object for the current pushed deadline, made on demand; only when {@link #present()}. */
  public void made(Object object) {
    if (!passing) {
      made = object;
    }
  }

  /**
   * Makes a deadline current, saving what was.
   *
   * @param on its clock
   * @param instant its instant on that clock
   * @param budget its length when set, in nanoseconds
   * @param object the API's object for it, returned as it is while it is current; null to make one on demand
   */
  public void push(TimeSource on, long instant, long budget, Object object) {
    if (!anySet) {
      anySet = true;
    }
    save();
    clock = on;
    at = instant;
    budgetNanos = budget;
    made = object;
  }

  /** Makes no deadline current, saving what was. */
  public void pushNone() {
    push(null, 0, 0, null);
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
    PassedOn saved = savedPassedOn[depth];
    if (saved != null) {
      passedOn = saved;
    }
    passing = saved != null;
    savedClocks[depth] = null;
    savedMade[depth] = null;
    savedPassedOn[depth] = null;
  }

  /**
   * Lays an attempt's bound over the current deadline while the attempt runs on this thread.
   *
   * @param bound what the attempt passes on
   * @return what to hand back to {@link #stopPassingOn} when the attempt ends
   */
  public PassedOn passOn(PassedOn bound) {
    if (!anySet) {
      anySet = true;
    }
    PassedOn outer = passing ? passedOn : null;
    if (passedOn != bound) {
      passedOn = bound;
    }
    passing = true;
    return outer;
  }

  /**
   * Takes an attempt's bound off again.
   *
   * @param outer what {@link #passOn} returned
   */
  public void stopPassingOn(PassedOn outer) {
    if (outer == null) {
      passing = false;
    } else {
      passedOn = outer;
    }
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
      savedPassedOn = new PassedOn[4];
    } else if (depth == savedClocks.length) {
      savedClocks = Arrays.copyOf(savedClocks, depth * 2);
      savedAts = Arrays.copyOf(savedAts, depth * 2);
      savedBudgets = Arrays.copyOf(savedBudgets, depth * 2);
      savedMade = Arrays.copyOf(savedMade, depth * 2);
      savedPassedOn = Arrays.copyOf(savedPassedOn, depth * 2);
    }
    savedClocks[depth] = clock;
    savedAts[depth] = at;
    savedBudgets[depth] = budgetNanos;
    savedMade[depth] = made;
    savedPassedOn[depth] = passing ? passedOn : null;
    passing = false;
    depth++;
  }
}
