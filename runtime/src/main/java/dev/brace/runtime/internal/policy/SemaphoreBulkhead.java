package dev.brace.runtime.internal.policy;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.internal.event.EventBus;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.BulkheadHandle;
import dev.brace.runtime.config.BulkheadConfig;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * At most {@code maxConcurrent} holders at once. The permits are one {@link AtomicInteger}: taking
 * and returning one is a compare-and-set, and that alone keeps the bound under every interleaving.
 * Only a caller that must wait touches the lock; it parks on a condition that a release signals
 * when someone is waiting. Waiting callers are woken in arrival order, but a caller arriving just
 * as a permit comes free may take it first.
 *
 * <p>A waiter's {@code maxWait} is a task on the registry's scheduler, as a timeout's deadline is,
 * so the registry's clock decides when it gives up: a test on manual time drives it by advancing
 * the clock.
 *
 * <p>New settings ({@link #reconfigure}) keep the calls in flight: the free permits move by the
 * change of {@code maxConcurrent}, below zero when the bulkhead is lowered beneath what is in
 * flight, so the new limit applies to admissions and the calls holding permits finish as they are.
 */
public final class SemaphoreBulkhead implements BulkheadHandle {

  private static final EventKind REJECTED = EventKind.BULKHEAD_REJECTED;
  private static final EventKind WAITED = EventKind.BULKHEAD_WAITED;

  private volatile BulkheadConfig config;
  private final EventBus events;
  private final Supplier<ScheduledExecutorService> scheduler;
  private volatile long maxWaitNanos;
  /** Permits free now; below zero while a lowered limit is still exceeded by the calls in flight. */
  private final AtomicInteger free;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition permitFreed = lock.newCondition();
  /** Written only under {@link #lock}; read without it by releasers deciding whether to signal. */
  private volatile int waiting;

  /**
   * @param config the bulkhead's settings
   * @param scheduler runs each waiter's {@code maxWait} deadline; asked only when a caller waits
   * @param events where refusals are reported
   * @throws NullPointerException when an argument is null
   */
  public SemaphoreBulkhead(BulkheadConfig config, Supplier<ScheduledExecutorService> scheduler, EventBus events) {
    this.config = Objects.requireNonNull(config, "config");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.events = Objects.requireNonNull(events, "events");
    this.maxWaitNanos = saturatedNanos(config);
    this.free = new AtomicInteger(config.maxConcurrent());
  }

  /** @return the settings this bulkhead runs on now */
  public BulkheadConfig config() {
    return config;
  }

  /**
   * Takes new settings, keeping the calls in flight: a higher {@code maxConcurrent} frees permits
   * at once (and wakes waiters), a lower one takes them away as calls return, and {@code maxWait}
   * applies to the next caller that waits.
   *
   * @param next the new settings, of this bulkhead's name
   */
  public synchronized void reconfigure(BulkheadConfig next) {
    Objects.requireNonNull(next, "next");
    int change = next.maxConcurrent() - config.maxConcurrent();
    // The release check reads the limit: raise it before freeing permits, lower it after taking them.
    if (change > 0) {
      config = next;
      free.addAndGet(change);
    } else {
      free.addAndGet(change);
      config = next;
    }
    maxWaitNanos = saturatedNanos(next);
    if (change > 0 && waiting > 0) {
      lock.lock();
      try {
        permitFreed.signalAll();
      } finally {
        lock.unlock();
      }
    }
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
    long maxWaitNanos = this.maxWaitNanos;
    if (maxWaitNanos <= 0) {
      throw rejected(null);
    }
    try {
      if (awaitPermit(maxWaitNanos)) {
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
   * Reports that a caller waited for the permit it now holds ({@code bulkhead.waited}). The
   * caller measures the wait on the registry's clock: the sync path around {@link #acquire()},
   * the async driver across its polls.
   *
   * @param waitedNanos how long the caller waited
   */
  public void waited(long waitedNanos) {
    if (events.enabled(WAITED)) {
      events.emit(WAITED, name(), "waited_ms", waitedNanos / 1_000_000, "waited_ns", waitedNanos);
    }
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
    return Math.max(0, free.get());
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

  /** The slow path: parks until a permit is taken or {@code maxWait} runs out on the registry's clock. */
  private boolean awaitPermit(long maxWaitNanos) throws InterruptedException {
    Deadline deadline = new Deadline();
    ScheduledFuture<?> expiry = scheduler.get().schedule(deadline, maxWaitNanos, TimeUnit.NANOSECONDS);
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
          if (deadline.passed) {
            return false;
          }
          permitFreed.await();
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
      expiry.cancel(false);
    }
  }

  /** Marks one waiter's {@code maxWait} as over and wakes the waiters, who each look at their own. */
  private final class Deadline implements Runnable {
    volatile boolean passed;

    @Override
    public void run() {
      lock.lock();
      try {
        passed = true;
        permitFreed.signalAll();
      } finally {
        lock.unlock();
      }
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
    int limit = config.maxConcurrent();
    if (events.enabled(REJECTED)) {
      events.emit(
          REJECTED, name(), "max_concurrent", limit, "in_flight", inFlight());
    }
    return new BulkheadFullException(name(), limit, cause);
  }

  private static long saturatedNanos(BulkheadConfig config) {
    Duration maxWait = config.maxWait();
    return maxWait.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0
        ? Long.MAX_VALUE
        : maxWait.toNanos();
  }
}
