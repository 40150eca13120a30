package dev.brace.runtime.internal.policy;

import dev.brace.Criticality;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.Refusal;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import dev.brace.runtime.spi.BulkheadInstance;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * At most a limit of holders at once; less for calls that matter less. The calls in flight are one
 * {@link AtomicInteger}: taking and returning a permit is a compare-and-set against the admission
 * threshold of the call's {@link Criticality.Level}, and that alone keeps every bound under every
 * interleaving. With limit L, a {@code CRITICAL} call is admitted while fewer than L are in flight,
 * a {@code DEFAULT} one while fewer than {@code ceil(L · defaultShare)}, a {@code SHEDDABLE} one
 * while fewer than {@code ceil(L · sheddableShare)} (each at least 1).
 *
 * <p>The limit is {@code maxConcurrent}, or for an adaptive bulkhead the {@link AdaptiveLimit}'s,
 * which moves after every completed call: an attempt's latency, from its admission to its outcome,
 * comes back with its permit ({@link #completed}). A fixed bulkhead reads no clock.
 *
 * <p>Only a caller that must wait touches the lock; it parks on its level's condition, and a
 * release wakes a waiter of the most critical level the free permit admits. Waiting callers of one
 * level are woken in arrival order, but a caller arriving just as a permit comes free may take it
 * first. A waiter's {@code maxWait} is a task on the registry's scheduler, as a timeout's deadline
 * is, so the registry's clock decides when it gives up.
 *
 * <p>New settings ({@link #reconfigure}) keep the calls in flight: the thresholds follow the new
 * {@code maxConcurrent} and shares at once, so a lower limit applies to new admissions (the calls in
 * flight may exceed it for a while) and the calls holding permits finish as they are. An adaptive
 * bulkhead keeps the limit it has learnt, clamped to the new {@code minConcurrent} and {@code
 * maxConcurrent}.
 */
public final class SemaphoreBulkhead implements BulkheadInstance {

  private static final EventKind REJECTED = EventKind.BULKHEAD_REJECTED;
  private static final Criticality.Level[] LEVELS = Criticality.Level.values();
  private static final EventKind WAITED = EventKind.BULKHEAD_WAITED;

  private volatile BulkheadConfig config;
  private final EventBus events;
  /** Waits and refusals, for a bound metrics listener. */
  private final BoundMetrics<InstanceMetrics> metrics;
  private final Supplier<ScheduledExecutorService> scheduler;
  private volatile long maxWaitNanos;
  private final AtomicInteger inFlight = new AtomicInteger();
  /** A fixed bulkhead's admission thresholds by level, read on every admission; unused when adaptive. */
  private volatile Thresholds fixed;
  /** The moving limit; null for a fixed bulkhead. */
  private final AdaptiveLimit adaptive;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition[] permitFreed = new Condition[LEVELS.length];
  /** Written only under {@link #lock}. */
  private final int[] waitingAt = new int[LEVELS.length];
  /** Written only under {@link #lock}; read without it by releasers deciding whether to signal. */
  private volatile int waiting;
  /** Permits taken by {@link #forceFull()} and not yet given back; under this bulkhead's monitor. */
  private int forcedPermits;

  /**
   * @param config the bulkhead's settings
   * @param scheduler runs each waiter's {@code maxWait} deadline; asked only when a caller waits
   * @param events where refusals are reported
   * @throws NullPointerException when an argument is null
   * @throws IllegalArgumentException when the bulkhead is adaptive: it needs a clock (the other constructor)
   */
  public SemaphoreBulkhead(BulkheadConfig config, Supplier<ScheduledExecutorService> scheduler, EventBus events) {
    this(config, null, scheduler, events);
  }

  /**
   * @param config the bulkhead's settings
   * @param time the clock an adaptive bulkhead measures latency on; may be null for a fixed one
   * @param scheduler runs each waiter's {@code maxWait} deadline; asked only when a caller waits
   * @param events where refusals and limit changes are reported
   * @throws NullPointerException when an argument is null (the clock only for an adaptive bulkhead)
   */
  public SemaphoreBulkhead(
      BulkheadConfig config, TimeSource time, Supplier<ScheduledExecutorService> scheduler, EventBus events) {
    this.config = Objects.requireNonNull(config, "config");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.events = Objects.requireNonNull(events, "events");
    this.metrics = BoundMetrics.ofInstance(events, Kind.BULKHEAD, config.name());
    this.maxWaitNanos = saturatedNanos(config);
    this.adaptive = config.isAdaptive() ? new AdaptiveLimit(config, Objects.requireNonNull(time, "time"), events) : null;
    this.fixed = new Thresholds(config);
    for (int i = 0; i < LEVELS.length; i++) {
      permitFreed[i] = lock.newCondition();
    }
  }

  /** @return the settings this bulkhead runs on now */
  public BulkheadConfig config() {
    return config;
  }

  /** @return whether the limit adapts, so that each attempt must be timed ({@link #timed}) */
  public boolean isAdaptive() {
    return adaptive != null;
  }

  /**
   * Takes new settings, keeping the calls in flight: a higher {@code maxConcurrent} or share admits
   * more at once (and wakes waiters), a lower one admits less as calls return, and {@code maxWait}
   * applies to the next caller that waits. An adaptive bulkhead keeps its learnt limit, clamped to
   * the new bounds.
   *
   * @param next the new settings, of this bulkhead's name
   * @throws IllegalArgumentException when {@code next} switches between a fixed and an adaptive
   *     limit, or to another algorithm: those are a different bulkhead, not new settings of this one
   */
  public synchronized void reconfigure(BulkheadConfig next) {
    Objects.requireNonNull(next, "next");
    if (next.adaptive() != config.adaptive()) {
      throw new IllegalArgumentException("bulkhead '" + name() + "' cannot switch from adaptive "
          + config.adaptive() + " to " + next.adaptive() + " while it runs");
    }
    if (adaptive != null) {
      adaptive.reconfigure(next);
    } else {
      fixed = new Thresholds(next);
    }
    config = next;
    maxWaitNanos = saturatedNanos(next);
    if (waiting > 0) {
      // Whatever the new thresholds admit now goes to the waiters; those they no longer admit wait on.
      signalAdmissible();
    }
  }

  /**
   * Takes a permit for a call of the given criticality, waiting up to {@code maxWait} for one.
   *
   * @param level the call's criticality
   * @throws BulkheadFullException when none came free within {@code maxWait} (at once when it is
   *     zero); or when the thread is interrupted while waiting, with the interrupt as cause and the
   *     interrupt flag set again
   */
  public void acquire(Criticality.Level level) {
    if (tryTake(level)) {
      return;
    }
    long maxWaitNanos = this.maxWaitNanos;
    if (maxWaitNanos <= 0) {
      throw rejected(level, null);
    }
    try {
      if (awaitPermit(level, maxWaitNanos)) {
        return;
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw rejected(level, interrupted);
    }
    throw rejected(level, null);
  }

  /**
   * As {@link #acquire(Criticality.Level)}, waiting no longer than {@code limitNanos} when that is
   * shorter than {@code maxWait} (what is left of a caller's deadline).
   *
   * @param level the call's criticality
   * @param limitNanos the longest the caller may wait; positive
   * @return false when {@code limitNanos} ran out before a permit came and before {@code maxWait}
   *     did (nothing is reported: the caller ran out of time, the bulkhead did not refuse)
   * @throws BulkheadFullException as {@link #acquire(Criticality.Level)}
   */
  public boolean acquireWithin(Criticality.Level level, long limitNanos) {
    long maxWaitNanos = this.maxWaitNanos;
    if (maxWaitNanos <= limitNanos) {
      acquire(level);
      return true;
    }
    if (tryTake(level)) {
      return true;
    }
    try {
      return awaitPermit(level, limitNanos);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw rejected(level, interrupted);
    }
  }

  /**
   * Takes a permit up to the whole limit (as a {@code CRITICAL} call), waiting up to {@code maxWait}.
   *
   * @throws BulkheadFullException as {@link #acquire(Criticality.Level)}
   */
  public void acquire() {
    acquire(Criticality.Level.CRITICAL);
  }

  @Override
  public boolean takeNow(Criticality.Level level) {
    return tryTake(level);
  }

  /** @return whether a permit was taken, up to the whole limit; as {@link #takeNow(Criticality.Level)} */
  public boolean tryAcquire() {
    return tryTake(Criticality.Level.CRITICAL);
  }

  /**
   * The refusal of a caller that gave up without blocking, for the async driver that polls {@link
   * #takeNow(Criticality.Level)} instead of waiting; reported as {@code bulkhead.rejected}.
   *
   * @param level the refused call's criticality
   * @return the exception to fail the caller with
   */
  public BulkheadFullException full(Criticality.Level level) {
    return rejected(level, null);
  }

  /**
   * Reports that a caller waited for the permit it now holds ({@code bulkhead.waited}). The
   * caller measures the wait on the registry's clock: the sync path around {@link #acquire},
   * the async driver across its polls.
   *
   * @param waitedNanos how long the caller waited
   */
  public void waited(long waitedNanos) {
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.waited(waitedNanos);
    }
    if (events.enabled(WAITED)) {
      events.emit(WAITED, name(), "waited_ms", waitedNanos / 1_000_000, "waited_ns", waitedNanos);
    }
  }

  /**
   * Returns the permit of an attempt that completed; for an adaptive bulkhead its latency moves the
   * limit.
   *
   * @param rttNanos how long the attempt took from its admission (read only when adaptive)
   * @param inFlight the calls in flight when it was admitted, itself included
   * @param failure what the attempt threw, or null when it returned: a timeout or a refusal from the
   *     dependency is a drop; an {@code Error}, or the caller's interrupt, tells nothing and is no sample
   */
  public void completed(long rttNanos, int inFlight, Throwable failure) {
    if (adaptive != null
        && (failure == null || !(failure instanceof Error || TimeoutPolicy.interruptedCaller(failure)))) {
      adaptive.completed(rttNanos, inFlight, failure != null && isDrop(failure));
    }
    release();
  }

  /** Returns the permit of an attempt that ended before an outcome (the caller gave up): no sample. */
  public void abandoned() {
    release();
  }

  /** @return how long a caller may wait for a permit, in nanoseconds; 0 refuses at once */
  public long maxWaitNanos() {
    return maxWaitNanos;
  }

  /** A timeout of the attempt, or a refusal the dependency passed on, says the dependency is past its capacity. */
  static boolean isDrop(Throwable failure) {
    Throwable cause = ExceptionFilter.unwrap(failure);
    return cause instanceof TimeoutExceededException || cause instanceof Refusal;
  }

  /**
   * Returns a permit taken by {@link #acquire} or {@link #takeNow} (of a fixed bulkhead, or of an
   * adaptive one whose attempt was never timed).
   *
   * @throws IllegalStateException when no permit is taken: a release without its acquire, which
   *     must not grow the bulkhead
   */
  @Override
  public void release() {
    while (true) {
      int current = inFlight.get();
      if (current <= 0) {
        throw new IllegalStateException(
            "bulkhead '" + name() + "' released more permits than were taken");
      }
      if (inFlight.compareAndSet(current, current - 1)) {
        break;
      }
    }
    // Read after the permit is back: a waiter that registered later re-checks and sees it.
    if (waiting > 0) {
      signalAdmissible();
    }
  }

  @Override
  public synchronized int forceFull() {
    int taken = 0;
    while (tryTake(Criticality.Level.CRITICAL)) {
      taken++;
    }
    forcedPermits += taken;
    return taken;
  }

  @Override
  public synchronized void releaseForced() {
    for (; forcedPermits > 0; forcedPermits--) {
      release();
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
    return inFlight.get();
  }

  /** @return the permits a {@code CRITICAL} call could take now */
  @Override
  public int available() {
    return Math.max(0, limit() - inFlight.get());
  }

  /** @return the capacity: the ceiling of an adaptive bulkhead */
  @Override
  public int maxConcurrent() {
    return config.maxConcurrent();
  }

  /** @return the current limit: {@code maxConcurrent}, or where an adaptive bulkhead's limit stands now */
  @Override
  public int limit() {
    return adaptive == null ? config.maxConcurrent() : adaptive.limit();
  }

  /**
   * @param level a criticality
   * @return how many calls may be in flight for a call of that level to be admitted: the limit, or
   *     its share rounded up, at least 1
   */
  public int threshold(Criticality.Level level) {
    if (adaptive != null) {
      return threshold(config, adaptive.limit(), level);
    }
    Thresholds fixed = this.fixed;
    return level == Criticality.Level.CRITICAL ? fixed.critical
        : level == Criticality.Level.DEFAULT ? fixed.normal : fixed.sheddable;
  }

  /** A fixed bulkhead's thresholds of one version of its settings, replaced whole so an admission reads one version. */
  private static final class Thresholds {
    final int critical;
    final int normal;
    final int sheddable;

    Thresholds(BulkheadConfig config) {
      this.critical = threshold(config, config.maxConcurrent(), Criticality.Level.CRITICAL);
      this.normal = threshold(config, config.maxConcurrent(), Criticality.Level.DEFAULT);
      this.sheddable = threshold(config, config.maxConcurrent(), Criticality.Level.SHEDDABLE);
    }
  }

  private static int threshold(BulkheadConfig config, int limit, Criticality.Level level) {
    if (level == Criticality.Level.CRITICAL) {
      return limit;
    }
    double share = level == Criticality.Level.DEFAULT ? config.defaultShare() : config.sheddableShare();
    return Math.max(1, (int) Math.ceil(limit * share));
  }

  private boolean tryTake(Criticality.Level level) {
    int threshold = threshold(level);
    while (true) {
      int current = inFlight.get();
      if (current >= threshold) {
        return false;
      }
      if (inFlight.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  /** The slow path: parks until a permit is taken or {@code maxWait} runs out on the registry's clock. */
  private boolean awaitPermit(Criticality.Level level, long maxWaitNanos) throws InterruptedException {
    MaxWaitExpiry maxWait = new MaxWaitExpiry(level);
    ScheduledFuture<?> expiry = scheduler.get().schedule(maxWait, maxWaitNanos, TimeUnit.NANOSECONDS);
    int at = level.ordinal();
    lock.lockInterruptibly();
    try {
      waitingAt[at]++;
      waiting++;
      try {
        while (true) {
          // Registered as waiting before this check, so a release after it will signal.
          if (tryTake(level)) {
            passOn();
            return true;
          }
          if (maxWait.passed) {
            return false;
          }
          permitFreed[at].await();
        }
      } catch (InterruptedException interrupted) {
        // A signal meant for this waiter may have arrived with the interrupt: hand it on.
        passOn();
        throw interrupted;
      } finally {
        waitingAt[at]--;
        waiting--;
      }
    } finally {
      lock.unlock();
      expiry.cancel(false);
    }
  }

  /** Marks one waiter's {@code maxWait} as over and wakes the waiters of its level, who each look at their own. */
  private final class MaxWaitExpiry implements Runnable {
    private final Criticality.Level level;
    volatile boolean passed;

    MaxWaitExpiry(Criticality.Level level) {
      this.level = level;
    }

    @Override
    public void run() {
      lock.lock();
      try {
        passed = true;
        permitFreed[level.ordinal()].signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Under the lock: wakes a waiter of the most critical level that the calls in flight now admit. */
  private void passOn() {
    int current = inFlight.get();
    for (Criticality.Level level : LEVELS) {
      // This caller still counts itself among the waiters of its level.
      if (waitingAt[level.ordinal()] > 0 && current < threshold(level)) {
        permitFreed[level.ordinal()].signal();
        return;
      }
    }
  }

  private void signalAdmissible() {
    lock.lock();
    try {
      passOn();
    } finally {
      lock.unlock();
    }
  }

  private BulkheadFullException rejected(Criticality.Level level, InterruptedException cause) {
    int limit = limit();
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.rejected();
    }
    if (events.enabled(REJECTED)) {
      events.emit(
          REJECTED, name(), "max_concurrent", config.maxConcurrent(), "in_flight", inFlight(),
          "criticality", level.name(), "limit", limit);
    }
    int threshold = threshold(level);
    return threshold < limit
        ? new BulkheadFullException(name(), limit, level.name(), threshold, cause)
        : new BulkheadFullException(name(), limit, cause);
  }

  private static long saturatedNanos(BulkheadConfig config) {
    Duration maxWait = config.maxWait();
    return maxWait.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0
        ? Long.MAX_VALUE
        : maxWait.toNanos();
  }
}
