package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.BulkheadHandle;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * At most {@code maxConcurrent} holders at once. The permits are one {@link AtomicInteger}: taking
 * and returning one is a compare-and-set, and that alone keeps the bound under every interleaving.
 * Only a caller that must wait touches the lock; it parks on a condition that a release signals
 * when someone is waiting. Waiting callers are woken in arrival order, but a caller arriving just
 * as a permit comes free may take it first.
 */
public final class SemaphoreBulkhead implements BulkheadHandle {

  private static final String REJECTED = "bulkhead.rejected";

  private final BulkheadConfig config;
  private final EventBus events;
  private final long maxWaitNanos;
  private final AtomicInteger free;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition permitFreed = lock.newCondition();
  /** Written only under {@link #lock}; read without it by releasers deciding whether to signal. */
  private volatile int waiting;

  /**
   * @param config the bulkhead's settings
   * @param time not read: a permit comes free only when another thread returns it, so waiting is
   *     a real blocking wait of up to {@code maxWait}, never a sleep on a clock
   * @param events where refusals are reported
   * @throws NullPointerException when an argument is null
   */
  public SemaphoreBulkhead(BulkheadConfig config, TimeSource time, EventBus events) {
    this.config = Objects.requireNonNull(config, "config");
    Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
    this.maxWaitNanos = saturatedNanos(config);
    this.free = new AtomicInteger(config.maxConcurrent());
  }

  /** @return the settings this bulkhead was built from */
  public BulkheadConfig config() {
    return config;
  }

  /**
   * Takes a permit, waiting up to {@code maxWait} for one to be released.
   *
   * @throws BulkheadFullException when none came free within {@code maxWait} (at once when it is
   *     zero); or when the thread is interrupted while waiting, with the interrupt as cause and the
   *     interrupt flag set again
   */
  public void acquire() {
    if (tryTake()) {
      return;
    }
    if (maxWaitNanos <= 0) {
      throw rejected(null);
    }
    try {
      if (awaitPermit()) {
        return;
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw rejected(interrupted);
    }
    throw rejected(null);
  }

  /**
   * Takes a permit only if one is free now; never waits and reports nothing.
   *
   * @return whether a permit was taken
   */
  public boolean tryAcquire() {
    return tryTake();
  }

  /**
   * The refusal of a caller that gave up without blocking, for the async driver that polls {@link
   * #tryAcquire()} instead of waiting; reported as {@code bulkhead.rejected}.
   *
   * @return the exception to fail the caller with
   */
  public BulkheadFullException full() {
    return rejected(null);
  }

  /**
   * Returns a permit taken by {@link #acquire()} or {@link #tryAcquire()}.
   *
   * @throws IllegalStateException when every permit is already free: a release without its
   *     acquire, which must not grow the bulkhead
   */
  public void release() {
    while (true) {
      int current = free.get();
      if (current >= config.maxConcurrent()) {
        throw new IllegalStateException(
            "bulkhead '" + name() + "' released more permits than were taken");
      }
      if (free.compareAndSet(current, current + 1)) {
        break;
      }
    }
    // Read after the permit is back: a waiter that registered later re-checks and sees it.
    if (waiting > 0) {
      signalOne();
    }
  }

  /** @return the bulkhead's name */
  @Override
  public String name() {
    return config.name();
  }

  /** @return the permits taken and not yet returned */
  @Override
  public int inFlight() {
    return config.maxConcurrent() - free.get();
  }

  /** @return the permits free now */
  @Override
  public int available() {
    return free.get();
  }

  /** @return the capacity */
  @Override
  public int maxConcurrent() {
    return config.maxConcurrent();
  }

  private boolean tryTake() {
    while (true) {
      int current = free.get();
      if (current <= 0) {
        return false;
      }
      if (free.compareAndSet(current, current - 1)) {
        return true;
      }
    }
  }

  /** The slow path: parks until a permit is taken or {@code maxWait} runs out. */
  private boolean awaitPermit() throws InterruptedException {
    long remaining = maxWaitNanos;
    lock.lockInterruptibly();
    try {
      waiting++;
      try {
        while (true) {
          // Registered as waiting before this check, so a release after it will signal.
          if (tryTake()) {
            passOnIfFree();
            return true;
          }
          if (remaining <= 0) {
            return false;
          }
          remaining = permitFreed.awaitNanos(remaining);
        }
      } catch (InterruptedException interrupted) {
        // A signal meant for this waiter may have arrived with the interrupt: hand it on.
        passOnIfFree();
        throw interrupted;
      } finally {
        waiting--;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Wakes another waiter when permits remain, so a signal consumed here is never lost. */
  private void passOnIfFree() {
    if (free.get() > 0 && waiting > 1) {
      permitFreed.signal();
    }
  }

  private void signalOne() {
    lock.lock();
    try {
      permitFreed.signal();
    } finally {
      lock.unlock();
    }
  }

  private BulkheadFullException rejected(InterruptedException cause) {
    if (events.enabled(REJECTED)) {
      events.emit(
          REJECTED, name(), "max_concurrent", config.maxConcurrent(), "in_flight", inFlight());
    }
    return new BulkheadFullException(name(), config.maxConcurrent(), cause);
  }

  private static long saturatedNanos(BulkheadConfig config) {
    Duration maxWait = config.maxWait();
    return maxWait.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0
        ? Long.MAX_VALUE
        : maxWait.toNanos();
  }
}
