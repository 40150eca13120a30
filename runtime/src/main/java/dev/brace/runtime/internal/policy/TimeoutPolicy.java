package dev.brace.runtime.internal.policy;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.internal.event.BoundMetrics;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.event.InstanceMetrics;

import dev.brace.Timeout;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.TimeoutConfig;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Bounds one synchronous attempt. {@code INTERRUPT} runs the attempt on the caller's thread and
 * interrupts it at the deadline; {@code ABANDON} runs it on a worker thread and releases the
 * caller at the deadline (by interrupting its wait) and interrupts the worker.
 *
 * <p>The deadline is the calling thread's own {@link AttemptDeadline}, reused by each of its
 * attempts, and one {@link DeadlineWatchdog} task on the registry's scheduler fires it: the happy
 * path of an interrupting attempt reads the clock, writes the deadline and clears it with one
 * compare-and-set, and allocates nothing. The scheduler runs the watchdog, so manual time drives
 * deadlines in tests.
 */
public final class TimeoutPolicy {
  private final TimeoutConfig config;
  private final String callName;
  private final TimeSource time;
  private final ScheduledExecutorService scheduler;
  private final Executor workers;
  private final EventBus events;
  /** Attempts cut off, for a bound metrics listener. */
  private final BoundMetrics<InstanceMetrics> metrics;
  private final long nanos;
  private final DeadlineWatchdog watchdog;
  private final ThreadLocal<AttemptDeadline> deadlines = new ThreadLocal<>();

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
    this.config = Objects.requireNonNull(config, "config");
    this.callName = Objects.requireNonNull(callName, "callName");
    this.time = Objects.requireNonNull(time, "time");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.workers = Objects.requireNonNull(workers, "workers");
    this.events = Objects.requireNonNull(events, "events");
    this.metrics = BoundMetrics.ofInstance(events, Kind.TIMEOUT, config.name());
    this.nanos = RetryPolicy.saturatedNanos(config.duration());
    this.watchdog = new DeadlineWatchdog(time, scheduler);
  }

  /** @return the settings */
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

  /**
   * Runs one attempt under the deadline.
   *
   * @param attempt the delegate call
   * @param startedAt when the attempt was admitted, on the registry's clock (the deadline counts
   *     from there), or {@link Long#MIN_VALUE} to count from now
   * @return its result
   * @throws Throwable what it threw, {@link TimeoutExceededException} when the deadline passed
   *     first, or {@link CallerInterrupted} when an abandoning caller was interrupted
   *     while it waited (see {@link #interruptedCaller})
   */
  public Object call(SyncAttempt attempt, long startedAt) throws Throwable {
    long start = startedAt == Long.MIN_VALUE ? time.nanoTime() : startedAt;
    return config.mode() == Timeout.Mode.ABANDON ? abandoning(attempt, start) : interrupting(attempt, start);
  }

  private Object interrupting(SyncAttempt attempt, long start) throws Throwable {
    Thread caller = Thread.currentThread();
    boolean interruptedBefore = caller.isInterrupted();
    AttemptDeadline deadline = arm(caller, start);
    Object result = null;
    Throwable failure = null;
    try {
      result = attempt.call();
    } catch (Throwable thrown) {
      failure = thrown;
    }
    if (deadline.disarm()) {
      if (failure != null) {
        throw failure;
      }
      return result;
    }
    // The deadline fired: clear the interrupt we caused, keep one that was there before.
    Thread.interrupted();
    if (interruptedBefore) {
      caller.interrupt();
    }
    throw exceeded(failure);
  }

  /**
   * Arms the caller's deadline, counting from {@code start}.
   *
   * @throws java.util.concurrent.RejectedExecutionException when the scheduler refuses the
   *     watchdog; nothing is left armed
   */
  private AttemptDeadline arm(Thread caller, long start) {
    AttemptDeadline deadline = deadlineOf(caller);
    long at = start + nanos;
    if (!deadline.arm(at)) {
      // This timeout is already running further up the stack (a recursive call): one more deadline.
      deadline = new AttemptDeadline(caller, true);
      deadline.arm(at);
      watchdog.register(deadline);
    }
    try {
      watchdog.armed(at);
    } catch (RuntimeException | Error rejected) {
      if (!deadline.disarm()) {
        // Fired in between by a watchdog run already pending: that interrupt is Brace's own.
        Thread.interrupted();
      }
      throw rejected;
    }
    return deadline;
  }

  /** @return the thread's own deadline for this timeout, made and registered on its first use */
  private AttemptDeadline deadlineOf(Thread thread) {
    AttemptDeadline deadline = deadlines.get();
    if (deadline == null) {
      deadline = new AttemptDeadline(thread, false);
      deadlines.set(deadline);
      watchdog.register(deadline);
    }
    return deadline;
  }

  private Object abandoning(SyncAttempt attempt, long start) throws Throwable {
    Thread caller = Thread.currentThread();
    boolean interruptedBefore = caller.isInterrupted();
    // The worker may outlive this attempt: it runs on a copy of what the caller will reuse.
    AbandonableAttempt<Object> worker = new AbandonableAttempt<>(attempt.detached(), CallContext.capture(), caller);
    // Armed before the worker starts, so the deadline counts from the call's start.
    AttemptDeadline deadline = arm(caller, start);
    try {
      workers.execute(worker);
    } catch (RuntimeException | Error rejected) {
      if (!deadline.disarm()) {
        Thread.interrupted();
      }
      throw rejected;
    }
    boolean interrupted = worker.await();
    if (deadline.disarm()) {
      if (interrupted) {
        // Someone else interrupted the caller while it waited: its doing, not the dependency's.
        worker.abandon();
        caller.interrupt();
        throw new CallerInterrupted(
            "'" + config.name() + "' was interrupted while waiting for its abandoned attempt", new InterruptedException());
      }
      return worker.outcome();
    }
    // The deadline fired: clear the interrupt we caused, keep one that was there before.
    Thread.interrupted();
    if (interruptedBefore) {
      caller.interrupt();
    }
    if (worker.done()) {
      // Finished in the same instant the deadline fired: the outcome is there, so it is the answer.
      return worker.outcome();
    }
    worker.abandon();
    TimeoutExceededException timedOut = new TimeoutExceededException(config.name(), config.duration());
    emitExceeded(timedOut);
    throw timedOut;
  }

  /**
   * @param failure what an attempt ended with
   * @return whether it ended because the caller was interrupted while it waited: the caller's own
   *     doing, not an outcome of the dependency
   */
  public static boolean interruptedCaller(Throwable failure) {
    return CallerInterrupted.is(failure);
  }

  private TimeoutExceededException exceeded(Throwable failure) {
    TimeoutExceededException exceeded = exceeded();
    if (failure != null) {
      exceeded.addSuppressed(failure);
    }
    return exceeded;
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
