package dev.brace.runtime.internal.policy;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.context.CurrentDeadline;
import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread's alarm for one timeout: set for the instant an attempt must end by, it interrupts
 * the thread when that instant passes first. Reused by every attempt the thread makes under the
 * timeout, so arming it allocates nothing. The thread {@link #arm arms} it before an attempt and
 * {@link #disarm disarms} it after; the {@link AlarmWatchdog} fires it when the instant passes
 * first, which interrupts the thread. Exactly one of the two wins, decided by one compare-and-set.
 *
 * <p>The state is one {@code long}: a generation (bumped by every arm) and a phase. The watchdog
 * fires only the generation it saw armed, so an attempt that ended, and a next one armed in
 * between, is never interrupted for its predecessor's deadline.
 *
 * <p>While it is armed it is also the bound its attempt passes on to the calls nested in it (an
 * attempt made without waiting has no state to carry one): its instant, on its timeout's clock,
 * for its timeout's duration.
 */
public final class InterruptAlarm implements CurrentDeadline.PassedOn {
  private static final long IDLE = 0;
  private static final long ARMED = 1;
  private static final long FIRING = 2;
  private static final long FIRED = 3;
  private static final long PHASE = 3;
  private static final long GENERATION = 4;

  private final AtomicLong state = new AtomicLong();
  /** Weak: the watchdog's list of deadlines must not keep ended threads alive. */
  private final WeakReference<Thread> owner;
  /**
   * The deadline instant on the registry's clock. Plain: written before the volatile state that
   * publishes it and read after reading that state. A read racing with the next arm may see the
   * next attempt's instant, but then the state has moved on too, and the compare-and-set that
   * would fire it fails.
   */
  private long at;
  /** Used once, by a nested attempt on a thread whose own deadline was busy; dropped after. */
  private final boolean single;
  private volatile boolean retired;
  /** The clock {@link #at} is on, and the timeout's duration: what a nested call reads of the bound passed on. */
  private final TimeSource clock;
  private final long budgetNanos;
  /**
   * Whether the owner was interrupted before the attempt this alarm is armed for: it is
   * interrupted again after a fired alarm's interrupt is cleared ({@link #clearItsInterrupt}). Its
   * owner alone reads and writes it.
   */
  boolean interruptedBefore;

  /**
   * @param owner the thread this deadline interrupts
   * @param single whether it serves one attempt only (the watchdog then forgets it once disarmed)
   * @param clock the registry's clock, which the instants are on
   * @param budgetNanos the timeout's duration
   */
  InterruptAlarm(Thread owner, boolean single, TimeSource clock, long budgetNanos) {
    this.owner = new WeakReference<>(owner);
    this.single = single;
    this.clock = clock;
    this.budgetNanos = budgetNanos;
  }

  /**
   * After this alarm fired, on its owner's thread: clears the interrupt it caused, and keeps one
   * the owner had before the attempt.
   */
  void clearItsInterrupt() {
    Thread.interrupted();
    if (interruptedBefore) {
      Thread.currentThread().interrupt();
    }
  }

  /** @return the instant it is armed for; read by its owner only, while it is armed */
  long at() {
    return at;
  }

  @Override
  public TimeSource passedOnClock() {
    return clock;
  }

  @Override
  public long passedOnEnd() {
    return at;
  }

  @Override
  public long passedOnBudget() {
    return budgetNanos;
  }

  /**
   * Arms the deadline for the owner's next attempt.
   *
   * @param deadline the instant, on the registry's clock
   * @return false when it is already armed: an attempt under the same timeout is running further
   *     up this thread's stack, which needs a deadline of its own
   */
  boolean arm(long deadline) {
    long current = state.get();
    if ((current & PHASE) != IDLE) {
      return false;
    }
    at = deadline;
    state.set(current + GENERATION + ARMED);
    return true;
  }

  /**
   * Ends the attempt's deadline. When the watchdog fired it first, waits until the interrupt has
   * been delivered, so that it can never land after the caller cleared it.
   *
   * @return true when the attempt ended in time; false when the deadline fired (the owner has been
   *     interrupted)
   */
  boolean disarm() {
    long armed = state.get();
    if ((armed & PHASE) == ARMED && state.compareAndSet(armed, armed - ARMED)) {
      retireIfSingle();
      return true;
    }
    long current;
    while (((current = state.get()) & PHASE) == FIRING) {
      Thread.onSpinWait();
    }
    state.set(current - FIRED);
    retireIfSingle();
    return false;
  }

  private void retireIfSingle() {
    if (single) {
      retired = true;
    }
  }

  /**
   * The watchdog's look at this deadline.
   *
   * @param now the registry's clock
   * @return {@link AlarmWatchdog#NONE} when nothing is armed or the deadline just fired, else
   *     the armed instant still to come
   */
  long fireIfPassed(long now) {
    long armed = state.get();
    if ((armed & PHASE) != ARMED) {
      return AlarmWatchdog.NONE;
    }
    long deadline = at;
    if (now - deadline < 0) {
      return deadline;
    }
    // Fails when the attempt ended meanwhile (or a later one was armed): nothing to fire then.
    if (state.compareAndSet(armed, armed - ARMED + FIRING)) {
      Thread thread = owner.get();
      if (thread != null) {
        thread.interrupt();
      }
      state.set(armed - ARMED + FIRED);
    }
    return AlarmWatchdog.NONE;
  }

  /** @return whether the watchdog can forget this deadline: its thread has ended, or it served its one attempt */
  boolean forgotten() {
    if (retired) {
      return true;
    }
    Thread thread = owner.get();
    return thread == null || !thread.isAlive();
  }
}
