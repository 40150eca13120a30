package dev.brace.runtime.internal.policy;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.generated.SyncAttempt;
import dev.brace.runtime.internal.event.EventBus;

import dev.brace.Timeout;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.TimeoutConfig;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds one synchronous attempt. {@code INTERRUPT} runs the attempt on the caller's thread and
 * interrupts it at the deadline; {@code ABANDON} runs it on a worker thread and releases the
 * caller at the deadline. The deadline is a task on the registry's scheduler, so manual time
 * drives it in tests.
 */
public final class TimeoutPolicy {
  private final TimeoutConfig config;
  private final String callName;
  private final ScheduledExecutorService scheduler;
  private final ThreadFactory workers;
  private final EventBus events;
  private final long nanos;

  public TimeoutPolicy(
      TimeoutConfig config,
      String callName,
      ScheduledExecutorService scheduler,
      ThreadFactory workers,
      EventBus events) {
    this.config = Objects.requireNonNull(config, "config");
    this.callName = Objects.requireNonNull(callName, "callName");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.workers = Objects.requireNonNull(workers, "workers");
    this.events = Objects.requireNonNull(events, "events");
    this.nanos = RetryPolicy.saturatedNanos(config.duration());
  }

  /** @return the settings */
  public TimeoutConfig config() {
    return config;
  }

  /** @return the deadline in nanoseconds */
  public long nanos() {
    return nanos;
  }

  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  public <T> T call(SyncAttempt<T> attempt) throws Throwable {
    return config.mode() == Timeout.Mode.ABANDON ? abandoning(attempt) : interrupting(attempt);
  }

  private <T> T interrupting(SyncAttempt<T> attempt) throws Throwable {
    Thread caller = Thread.currentThread();
    boolean interruptedBefore = caller.isInterrupted();
    InterruptAtDeadline deadline = new InterruptAtDeadline(caller);
    deadline.task = scheduler.schedule(deadline, nanos, TimeUnit.NANOSECONDS);
    T result = null;
    Throwable failure = null;
    try {
      result = attempt.call();
    } catch (Throwable thrown) {
      failure = thrown;
    }
    if (deadline.finish()) {
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

  private <T> T abandoning(SyncAttempt<T> attempt) throws Throwable {
    CompletableFuture<T> outcome = new CompletableFuture<>();
    Thread worker =
        workers.newThread(
            () -> {
              try {
                outcome.complete(attempt.call());
              } catch (Throwable thrown) {
                outcome.completeExceptionally(thrown);
              }
            });
    // The deadline is armed before the worker starts, so it counts from the call's start.
    TimeoutExceededException timedOut = new TimeoutExceededException(config.name(), config.duration());
    ScheduledFuture<?> deadline =
        scheduler.schedule(() -> outcome.completeExceptionally(timedOut), nanos, TimeUnit.NANOSECONDS);
    worker.start();
    try {
      return outcome.get();
    } catch (ExecutionException ended) {
      Throwable cause = ended.getCause();
      if (cause == timedOut) {
        worker.interrupt();
        emitExceeded(timedOut);
      }
      throw cause;
    } catch (InterruptedException callerInterrupted) {
      worker.interrupt();
      Thread.currentThread().interrupt();
      throw new CallerInterrupted("'" + config.name() + "' was interrupted while waiting for its abandoned attempt", callerInterrupted);
    } finally {
      deadline.cancel(false);
    }
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
    if (events.enabled(EventKind.TIMEOUT_EXCEEDED)) {
      events.emit(EventKind.TIMEOUT_EXCEEDED, config.name(), "call", callName, "timeout_ms", config.duration().toMillis(),
          "mode", config.mode().name(), "exception", exceeded.getClass().getName(), "message", exceeded.getMessage());
    }
  }

  /**
   * The deadline task of one interrupting attempt. Exactly one of the caller ({@link #finish}) and
   * the task ({@link #run}) wins; when the task wins, the caller waits until the interrupt has been
   * delivered, so it can never land after the caller cleared it.
   */
  private static final class InterruptAtDeadline extends AtomicInteger implements Runnable {
    private static final long serialVersionUID = 1L;
    private static final int RUNNING = 0;
    private static final int FINISHED = 1;
    private static final int INTERRUPTING = 2;
    private static final int INTERRUPTED = 3;

    private final Thread caller;
    volatile ScheduledFuture<?> task;

    InterruptAtDeadline(Thread caller) {
      this.caller = caller;
    }

    @Override
    public void run() {
      if (compareAndSet(RUNNING, INTERRUPTING)) {
        caller.interrupt();
        set(INTERRUPTED);
      }
    }

    /** @return true when the attempt finished in time */
    boolean finish() {
      if (compareAndSet(RUNNING, FINISHED)) {
        ScheduledFuture<?> scheduled = task;
        if (scheduled != null) {
          scheduled.cancel(false);
        }
        return true;
      }
      while (get() != INTERRUPTED) {
        Thread.onSpinWait();
      }
      return false;
    }
  }
}
