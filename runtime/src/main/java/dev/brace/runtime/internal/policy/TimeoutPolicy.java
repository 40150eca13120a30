package dev.brace.runtime.internal.policy;

import dev.brace.Timeout;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import dev.brace.runtime.spi.driver.DelegateCall;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Bounds one synchronous attempt. {@code INTERRUPT} runs the attempt on the caller's thread and
 * interrupts it at the deadline; {@code ABANDON} runs it on a worker thread and releases the
 * caller at the deadline (by interrupting its wait) and interrupts the worker.
 *
 * <p>The deadline is the calling thread's own {@link InterruptAlarm}, reused by each of its
 * attempts, and one {@link AlarmWatchdog} task on the registry's scheduler fires it: the happy
 * path of an interrupting attempt reads the clock, writes the deadline and clears it with one
 * compare-and-set, and allocates nothing. The scheduler runs the watchdog, so manual time drives
 * deadlines in tests.
 *
 * <p>It is told the instant an attempt must end by and the mode ({@link #call}), and does not
 * decide them: the call's attempt bounds do (its own duration counted from the admission, or a
 * caller's deadline that falls earlier), and make the failure of an attempt that runs past it
 * through an {@link Expiry} ({@link #ownExpiry()} for its own duration). A call without a timeout of its own gets a timer {@linkplain
 * #withoutDuration without a duration}.
 */
public final class TimeoutPolicy {
  /** Null for a timer without a duration of its own ({@link #withoutDuration}). */
  private final TimeoutConfig config;
  /** The timeout's name, or the call's for a timer of deadlines alone. */
  private final String name;
  private final Timeout.Mode mode;
  private final String callName;
  private final TimeSource time;
  private final ScheduledExecutorService scheduler;
  private final Executor workers;
  private final EventBus events;
  /** Attempts cut off, for a bound metrics listener. */
  private final BoundMetrics<InstanceMetrics> metrics;
  private final long nanos;
  private final AlarmWatchdog watchdog;
  private final ThreadLocal<InterruptAlarm> alarms = new ThreadLocal<>();
  private final Expiry ownExpiry = (end, budgetNanos) -> exceeded();

  /**
   * @param config the timeout's settings
   * @param callName the call it bounds, for events
   * @param time the registry's clock: deadlines are its instants
   * @param scheduler runs the watchdog that fires deadlines
   * @param workers runs {@code ABANDON} attempts, each on a thread of its own
   * @param events where expiries are reported
   * @throws NullPointerException when an argument is null
   */
  public TimeoutPolicy(
      TimeoutConfig config,
      String callName,
      TimeSource time,
      ScheduledExecutorService scheduler,
      Executor workers,
      EventBus events) {
    this(callName, Objects.requireNonNull(config, "config"), time, scheduler, workers, events);
  }

  private TimeoutPolicy(
      String callName,
      TimeoutConfig config,
      TimeSource time,
      ScheduledExecutorService scheduler,
      Executor workers,
      EventBus events) {
    this.config = config;
    this.callName = Objects.requireNonNull(callName, "callName");
    this.name = config == null ? callName : config.name();
    this.mode = config == null ? Timeout.Mode.INTERRUPT : config.mode();
    this.time = Objects.requireNonNull(time, "time");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.workers = Objects.requireNonNull(workers, "workers");
    this.events = Objects.requireNonNull(events, "events");
    // A timer of inherited deadlines alone never reports here: the call's deadline policy does.
    this.metrics = BoundMetrics.ofInstance(events, Kind.TIMEOUT, name);
    this.nanos = config == null ? Long.MAX_VALUE : RetryPolicy.saturatedNanos(config.duration());
    this.watchdog = new AlarmWatchdog(time, scheduler);
  }

  /**
   * A timer with no duration of its own, for a call bounded only by the deadlines it inherits: it
   * interrupts an attempt on the caller's thread, as {@code INTERRUPT} does, at the instant it is given.
   *
   * @param callName the call it bounds
   * @param time the registry's clock
   * @param scheduler runs the watchdog
   * @param events the event boundary
   * @return the timer
   */
  public static TimeoutPolicy withoutDuration(String callName, TimeSource time, ScheduledExecutorService scheduler, EventBus events) {
    Executor noWorkers = task -> {
      throw new IllegalStateException("a timer of inherited deadlines interrupts its attempts; it runs none elsewhere");
    };
    return new TimeoutPolicy(callName, null, time, scheduler, noWorkers, events);
  }

  /** @return the settings; null for a timer of inherited deadlines alone */
  public TimeoutConfig config() {
    return config;
  }

  /** @return the deadline in nanoseconds */
  public long nanos() {
    return nanos;
  }

  /** @return the scheduler deadlines and asynchronous waits run on */
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** @return the watchdog that fires this timeout's deadlines */
  AlarmWatchdog watchdog() {
    return watchdog;
  }

  /** @return how this timeout bounds an attempt; {@code INTERRUPT} for a timer without a duration of its own */
  public Timeout.Mode mode() {
    return mode;
  }

  /**
   * Runs one attempt that must end by {@code at}, in {@code mode}. Which instant that is, and what
   * an attempt that runs past it ends with, is decided by whoever bounds the attempt.
   *
   * @param attempt the delegate call
   * @param at the instant it must end by, on the registry's clock
   * @param budgetNanos the length of the bound {@code at} ends, handed to {@code expiry}
   * @param mode {@code INTERRUPT} runs it on the caller's thread and interrupts that at {@code at};
   *     {@code ABANDON} runs it on a worker and releases the caller then
   * @param expiry makes the failure of an attempt that runs past {@code at}: {@link #ownExpiry()}
   *     for this timeout's own duration
   * @return its result
   * @throws Throwable what it threw, what {@code expiry} made, or {@link CallerInterrupted} when an
   *     abandoning caller was interrupted while it waited (see {@link #interruptedCaller})
   */
  public Object call(DelegateCall attempt, long at, long budgetNanos, Timeout.Mode mode, Expiry expiry) throws Throwable {
    Objects.requireNonNull(expiry, "expiry");
    return mode == Timeout.Mode.ABANDON
        ? abandoning(attempt, at, budgetNanos, expiry)
        : interrupting(attempt, at, budgetNanos, expiry);
  }

  /** Makes the failure of an attempt whose bound passed first; one per call, so arming it allocates nothing. */
  @FunctionalInterface
  public interface Expiry {
    /**
     * @param end the bound that passed, on the registry's clock
     * @param budgetNanos its length
     * @return the failure, already reported
     */
    TimeoutExceededException expired(long end, long budgetNanos);
  }

  /** @return the failure of an attempt that ran past this timeout's own duration: {@link #exceeded()} */
  public Expiry ownExpiry() {
    return ownExpiry;
  }

  private Object interrupting(DelegateCall attempt, long at, long budgetNanos, Expiry expiry) throws Throwable {
    InterruptAlarm alarm = arm(at);
    Object result = null;
    Throwable failure = null;
    try {
      result = attempt.call();
    } catch (Throwable thrown) {
      failure = thrown;
    }
    failure = disarm(alarm, failure, budgetNanos, expiry);
    if (failure != null) {
      throw failure;
    }
    return result;
  }

  /**
   * Arms this thread's alarm for an attempt about to run on it in {@code INTERRUPT} mode, which
   * must end by {@code at}: the thread is interrupted if the attempt still runs then. The attempt
   * ends with {@link #disarm}. While armed, the alarm is the bound the attempt may pass on to the
   * calls nested in it (this timeout's clock and duration, and {@code at}).
   *
   * @param at the instant, on the registry's clock
   * @return the armed alarm
   * @throws java.util.concurrent.RejectedExecutionException when the scheduler refuses the
   *     watchdog; nothing is left armed
   */
  public InterruptAlarm arm(long at) {
    Thread caller = Thread.currentThread();
    // Read before arming: an alarm that fires at once must not pass for an interrupt from before.
    boolean interruptedBefore = caller.isInterrupted();
    InterruptAlarm alarm = deadlineOf(caller);
    if (!alarm.arm(at)) {
      // This timeout is already running further up the stack (a recursive call): one more alarm.
      alarm = new InterruptAlarm(caller, true, time, nanos);
      alarm.arm(at);
      watchdog.register(alarm);
    }
    alarm.interruptedBefore = interruptedBefore;
    try {
      watchdog.armed(at);
    } catch (RuntimeException | Error rejected) {
      if (!alarm.disarm()) {
        // Fired in between by a watchdog run already pending: that interrupt is Brace's own.
        alarm.clearItsInterrupt();
      }
      throw rejected;
    }
    return alarm;
  }

  /**
   * Ends an attempt {@link #arm armed} on this thread.
   *
   * @param alarm what {@link #arm} returned
   * @param failure what the attempt threw, or null when it returned
   * @param budgetNanos the length of the bound the alarm was armed for, handed to {@code expiry}
   * @param expiry makes the failure of an attempt that ran past it
   * @return what the attempt ends with: {@code failure} when it ended in time; when the alarm fired
   *     first, what {@code expiry} made, {@code failure} attached (the interrupt the alarm caused
   *     is cleared, one from before the attempt kept)
   */
  public Throwable disarm(InterruptAlarm alarm, Throwable failure, long budgetNanos, Expiry expiry) {
    if (alarm.disarm()) {
      return failure;
    }
    alarm.clearItsInterrupt();
    TimeoutExceededException exceeded = expiry.expired(alarm.at(), budgetNanos);
    if (failure != null) {
      exceeded.addSuppressed(failure);
    }
    return exceeded;
  }

  /** @return the thread's own deadline for this timeout, made and registered on its first use */
  private InterruptAlarm deadlineOf(Thread thread) {
    InterruptAlarm deadline = alarms.get();
    if (deadline == null) {
      deadline = new InterruptAlarm(thread, false, time, nanos);
      alarms.set(deadline);
      watchdog.register(deadline);
    }
    return deadline;
  }

  private Object abandoning(DelegateCall attempt, long at, long budgetNanos, Expiry expiry) throws Throwable {
    Thread caller = Thread.currentThread();
    // The worker may outlive this attempt: it runs on a copy of what the caller will reuse.
    AbandonableAttempt<Object> worker = new AbandonableAttempt<>(attempt.detached(), CallContext.capture(), caller);
    // Armed before the worker starts, so the deadline counts from the call's start.
    InterruptAlarm alarm = arm(at);
    try {
      workers.execute(worker);
    } catch (RuntimeException | Error rejected) {
      if (!alarm.disarm()) {
        alarm.clearItsInterrupt();
      }
      throw rejected;
    }
    boolean interrupted = worker.await();
    if (alarm.disarm()) {
      if (interrupted) {
        // Someone else interrupted the caller while it waited: its doing, not the dependency's.
        worker.abandon();
        caller.interrupt();
        throw new CallerInterrupted(
            "'" + name + "' was interrupted while waiting for its abandoned attempt", new InterruptedException());
      }
      return worker.outcome();
    }
    alarm.clearItsInterrupt();
    if (worker.done()) {
      // Finished in the same instant the deadline fired: the outcome is there, so it is the answer.
      return worker.outcome();
    }
    worker.abandon();
    throw expiry.expired(at, budgetNanos);
  }

  /**
   * @param failure what an attempt ended with
   * @return whether it ended because the caller was interrupted while it waited: the caller's own
   *     doing, not an outcome of the dependency
   */
  public static boolean interruptedCaller(Throwable failure) {
    return CallerInterrupted.is(failure);
  }

  /**
   * The failure of an attempt whose deadline passed, reported as {@code timeout.exceeded}; the
   * async driver completes the attempt with it.
   */
  public TimeoutExceededException exceeded() {
    TimeoutExceededException exceeded = new TimeoutExceededException(config.name(), config.duration());
    emitExceeded(exceeded);
    return exceeded;
  }

  private void emitExceeded(TimeoutExceededException exceeded) {
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.timedOut();
    }
    if (events.enabled(EventKind.TIMEOUT_EXCEEDED)) {
      events.emit(EventKind.TIMEOUT_EXCEEDED, config.name(), "call", callName, "timeout_ms", config.duration().toMillis(),
          "mode", config.mode().name(), "exception", exceeded.getClass().getName(), "message", exceeded.getMessage());
    }
  }
}
