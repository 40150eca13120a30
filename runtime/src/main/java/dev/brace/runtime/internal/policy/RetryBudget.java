package dev.brace.runtime.internal.policy;

import dev.brace.runtime.RetryBudgetHandle;
import dev.brace.runtime.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A shared cap on retries (Finagle's RetryBudget): over a sliding {@code ttl} window the retries
 * allowed are at most {@code percentCanRetry · calls + minRetriesPerSecond · ttl}. Every call
 * deposits once, every retry withdraws once. The window is {@value #SLICES} slices of counters,
 * so memory is constant. Thread-safe; the critical section is a few arithmetic operations, under
 * a lock rather than a monitor, so a virtual thread that waits for it never pins its carrier.
 */
public final class RetryBudget implements RetryBudgetHandle {
  static final int SLICES = 10;

  private final String name;
  private final TimeSource time;
  private double percentCanRetry;
  private double reserve;
  private long sliceNanos;
  private final long[] deposits = new long[SLICES];
  private final long[] withdrawals = new long[SLICES];
  private final ReentrantLock lock = new ReentrantLock();
  /** Guarded by {@link #lock}, like the slices. */
  private long currentSlice;

  /**
   * @param name the budget's name
   * @param percentCanRetry fraction of calls that may be retried, 0 to 1
   * @param minRetriesPerSecond retries always allowed per second, at least 0
   * @param ttl the sliding window
   * @param time the clock
   */
  public RetryBudget(
      String name, double percentCanRetry, double minRetriesPerSecond, Duration ttl, TimeSource time) {
    this.name = Objects.requireNonNull(name, "name");
    this.time = Objects.requireNonNull(time, "time");
    set(percentCanRetry, minRetriesPerSecond, ttl);
    this.currentSlice = time.nanoTime() / sliceNanos;
  }

  /**
   * Takes new settings, keeping the calls and retries counted in the window: a new {@code ttl}
   * re-times the slices from now and keeps each slice's counts at the same age in slices, so what
   * was counted ages out over the new span, oldest first.
   *
   * @param percentCanRetry fraction of calls that may be retried, 0 to 1
   * @param minRetriesPerSecond retries always allowed per second, at least 0
   * @param ttl the sliding window
   * @throws IllegalArgumentException when a value is out of its range
   */
  public void reconfigure(double percentCanRetry, double minRetriesPerSecond, Duration ttl) {
    lock.lock();
    try {
      slot();
      long previousSlice = currentSlice;
      long[] previousDeposits = deposits.clone();
      long[] previousWithdrawals = withdrawals.clone();
      set(percentCanRetry, minRetriesPerSecond, ttl);
      currentSlice = time.nanoTime() / sliceNanos;
      // The slices' indexes follow the clock: with a new slice length the current slice has another
      // index, so each slice's counts move to the index of the same age from now.
      for (int age = 0; age < SLICES; age++) {
        int from = (int) Math.floorMod(previousSlice - age, (long) SLICES);
        int to = (int) Math.floorMod(currentSlice - age, (long) SLICES);
        deposits[to] = previousDeposits[from];
        withdrawals[to] = previousWithdrawals[from];
      }
    } finally {
      lock.unlock();
    }
  }

  private void set(double percentCanRetry, double minRetriesPerSecond, Duration ttl) {
    if (!(percentCanRetry >= 0 && percentCanRetry <= 1)) {
      throw new IllegalArgumentException("percentCanRetry must be in [0, 1]: " + percentCanRetry);
    }
    if (!(minRetriesPerSecond >= 0) || Double.isInfinite(minRetriesPerSecond)) {
      throw new IllegalArgumentException("minRetriesPerSecond must be finite and ≥ 0: " + minRetriesPerSecond);
    }
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.compareTo(Duration.ofSeconds(1)) < 0 || ttl.compareTo(Duration.ofSeconds(60)) > 0) {
      throw new IllegalArgumentException("ttl must be from 1s to 60s: " + ttl);
    }
    this.percentCanRetry = percentCanRetry;
    this.reserve = minRetriesPerSecond * ttl.toNanos() / 1e9;
    this.sliceNanos = ttl.toNanos() / SLICES;
  }

  /** @return the budget's name */
  @Override
  public String name() {
    return name;
  }

  /** Records one call. */
  public void deposit() {
    lock.lock();
    try {
      deposits[slot()]++;
    } finally {
      lock.unlock();
    }
  }

  /** @return true, spending one retry, when the window still allows one */
  public boolean tryWithdraw() {
    lock.lock();
    try {
      int slot = slot();
      long calls = 0;
      long retries = 0;
      for (int i = 0; i < SLICES; i++) {
        calls += deposits[i];
        retries += withdrawals[i];
      }
      if (retries + 1 > percentCanRetry * calls + reserve) {
        return false;
      }
      withdrawals[slot]++;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** @return retries the window allows now */
  @Override
  public long available() {
    lock.lock();
    try {
      slot();
      long calls = 0;
      long retries = 0;
      for (int i = 0; i < SLICES; i++) {
        calls += deposits[i];
        retries += withdrawals[i];
      }
      return Math.max(0, (long) Math.floor(percentCanRetry * calls + reserve) - retries);
    } finally {
      lock.unlock();
    }
  }

  /** Moves the window to now, clearing the slices that fell out of it. */
  private int slot() {
    long slice = time.nanoTime() / sliceNanos;
    long passed = slice - currentSlice;
    if (passed > 0) {
      long clear = Math.min(passed, SLICES);
      for (long i = 1; i <= clear; i++) {
        int index = (int) Math.floorMod(currentSlice + i, (long) SLICES);
        deposits[index] = 0;
        withdrawals[index] = 0;
      }
      currentSlice = slice;
    }
    return (int) Math.floorMod(currentSlice, (long) SLICES);
  }
}
