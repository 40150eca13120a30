package dev.brace.runtime.internal.policy;

import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.DeadlineConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.context.CurrentDeadline;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * How one call takes part in deadlines: whether it is bounded by the deadline of the code that
 * calls it ({@code inherit}), what remains of that deadline, and the failure of a call that ran
 * out of it ({@link DeadlineExceededException}, reported as {@code deadline.exceeded}). It decides
 * no bound: the call's attempt bounds ({@code AttemptBounds}) read it to decide an attempt's, the
 * retry before each backoff.
 *
 * <p>A deadline is read from the thread the decision is made on ({@link CurrentDeadline}): the
 * caller's own, or the caller's context restored where a part of the call runs elsewhere. It is
 * converted to the registry's clock, which every instant of the call is on.
 *
 * <p>Immutable and thread-safe; the timer for calls without a timeout of their own is made on the
 * first attempt that needs it.
 */
public final class DeadlinePolicy {
  /** No deadline: what {@link #remainingNanos()} answers when the call is not under one. */
  public static final long NONE = Long.MIN_VALUE;

  private final DeadlineConfig config;
  private final String callName;
  private final TimeSource time;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final EventBus events;
  /** Calls that ran out of time, for a bound metrics listener. */
  private final BoundMetrics<InstanceMetrics> metrics;
  private final ReentrantLock making = new ReentrantLock();
  private volatile TimeoutPolicy timer;

  /**
   * @param config the call's deadline settings
   * @param callName the call, for events and failures
   * @param time the registry's clock
   * @param scheduler runs the timer that interrupts an attempt at an inherited deadline
   * @param events where calls that ran out of time are reported
   * @throws NullPointerException when an argument is null
   */
  public DeadlinePolicy(DeadlineConfig config, String callName, TimeSource time,
      Supplier<ScheduledExecutorService> scheduler, EventBus events) {
    this.config = Objects.requireNonNull(config, "config");
    this.callName = Objects.requireNonNull(callName, "callName");
    this.time = Objects.requireNonNull(time, "time");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.events = Objects.requireNonNull(events, "events");
    this.metrics = BoundMetrics.ofInstance(events, Kind.DEADLINE, callName);
  }

  /** @return the settings */
  public DeadlineConfig config() {
    return config;
  }

  /** @return whether the call is bounded by its caller's deadline; false for a write that must finish */
  public boolean inherits() {
    return config.inherit();
  }

  /**
   * @return nanoseconds left of the deadline this call inherits on this thread (zero or negative
   *     once it has passed), or {@link #NONE} when it inherits none
   */
  public long remainingNanos() {
    if (!config.inherit()) {
      return NONE;
    }
    CurrentDeadline current = CurrentDeadline.ofThisThread();
    if (!current.present()) {
      return NONE;
    }
    long now = time.nanoTime();
    return current.endOn(time, now) - now;
  }

  /**
   * The failure of a call that ran out of its deadline, reported as {@code deadline.exceeded}.
   *
   * @param end the deadline, an instant of the registry's clock
   * @param budgetNanos its length when it was set
   * @param now the registry's clock, just read
   * @return the failure to end the attempt with
   */
  public DeadlineExceededException exceeded(long end, long budgetNanos, long now) {
    long overrun = Math.max(0, now - end);
    DeadlineExceededException exceeded =
        new DeadlineExceededException(callName, Deadline.at(end, Duration.ofNanos(budgetNanos), time), Duration.ofNanos(overrun));
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.deadlineExceeded();
    }
    if (events.enabled(EventKind.DEADLINE_EXCEEDED)) {
      events.emit(EventKind.DEADLINE_EXCEEDED, callName, "call", callName,
          "budget_ms", TimeUnit.NANOSECONDS.toMillis(budgetNanos), "overrun_ms", TimeUnit.NANOSECONDS.toMillis(overrun));
    }
    return exceeded;
  }

  /**
   * @return the timer that bounds an attempt of a call without a timeout of its own by the deadline
   *     it inherits: it interrupts the attempt on the caller's thread, as {@code @Timeout}'s default
   *     mode does
   */
  public TimeoutPolicy timer() {
    TimeoutPolicy made = timer;
    if (made == null) {
      // A lock rather than a monitor, so virtual threads racing to make it never pin their carriers.
      making.lock();
      try {
        made = timer;
        if (made == null) {
          timer = made = TimeoutPolicy.withoutDuration(callName, time, scheduler.get(), events);
        }
      } finally {
        making.unlock();
      }
    }
    return made;
  }
}
