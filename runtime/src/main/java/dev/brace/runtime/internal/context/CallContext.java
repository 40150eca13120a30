package dev.brace.runtime.internal.context;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.OptionalClasses;
import dev.brace.runtime.spi.driver.CallerScope;
import dev.brace.runtime.spi.driver.CapturedContext;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.MDC;

/**
 * The caller's context, taken when a call starts, so that every part of the call that runs on
 * another thread (an asynchronous retry on the scheduler, the outcome of a future completed
 * elsewhere, a fallback after an asynchronous failure, an abandoned or hedged attempt, the event
 * listeners those run) sees what the caller's thread held: the SLF4J MDC, the deadline the caller
 * is under ({@link CurrentDeadline}), the OpenTelemetry {@code Context} when {@code
 * opentelemetry-api} is on the class path, and the value of every {@code ThreadLocalAccessor}
 * registered in Micrometer's {@code ContextRegistry} when {@code io.micrometer:context-propagation}
 * is.
 *
 * <p>{@link #restore()} installs it on the current thread and returns a {@link Scope} whose {@link
 * Scope#close()} puts back what the thread held before, so nothing of the caller's context is left
 * on a pool thread. A part of the call that runs on the caller's own thread, before the call has
 * returned, needs neither.
 *
 * <p>Cheap where nothing is set: a caller with an empty MDC, no deadline, no current span and no
 * registered accessor gets the one {@link #EMPTY} instance, allocated once. Restoring even that one on another
 * thread clears what that thread holds for the duration, as the caller's thread held nothing.
 *
 * <p>Immutable and safe to restore on several threads at once (a hedged call does).
 */
public final class CallContext implements CapturedContext {
  private static final boolean OPEN_TELEMETRY = OptionalClasses.present("io.opentelemetry.context.Context");
  private static final boolean CONTEXT_PROPAGATION = OptionalClasses.present("io.micrometer.context.ContextSnapshotFactory");

  /** A caller with nothing to carry. */
  static final CallContext EMPTY = new CallContext(null, null, null, null, 0, 0, null);

  /** A copy of the MDC; null when it was empty. */
  private final Map<String, String> mdc;
  /** The OpenTelemetry {@code Context}; null when it was the root. */
  private final Object openTelemetry;
  /** Micrometer's {@code ContextSnapshot}; null when no accessor was registered. */
  private final Object accessors;
  /**
   * The deadline the caller was under, as the thread's slot holds it: its clock (null for none), its
   * instant and length, and the API's object for it when one was made.
   */
  private final TimeSource deadlineClock;
  private final long deadlineEnd;
  private final long deadlineBudget;
  private final Object deadlineMade;

  private CallContext(Map<String, String> mdc, Object openTelemetry, Object accessors, TimeSource deadlineClock,
      long deadlineEnd, long deadlineBudget, Object deadlineMade) {
    this.mdc = mdc;
    this.openTelemetry = openTelemetry;
    this.accessors = accessors;
    this.deadlineClock = deadlineClock;
    this.deadlineEnd = deadlineEnd;
    this.deadlineBudget = deadlineBudget;
    this.deadlineMade = deadlineMade;
  }

  /** @return the current thread's context, to restore on the threads a call moves to */
  public static CallContext capture() {
    Map<String, String> mdc = MDC.getCopyOfContextMap();
    if (mdc != null && mdc.isEmpty()) {
      mdc = null;
    }
    Object openTelemetry = OPEN_TELEMETRY ? OpenTelemetryContext.current() : null;
    Object accessors = CONTEXT_PROPAGATION ? PropagatedAccessors.capture() : null;
    if (!CurrentDeadline.presentOnThisThread()) {
      return mdc == null && openTelemetry == null && accessors == null
          ? EMPTY
          : new CallContext(mdc, openTelemetry, accessors, null, 0, 0, null);
    }
    CurrentDeadline deadline = CurrentDeadline.ofThisThread();
    // A copy of the values, not the slot: an attempt's bound is gone once the attempt ends.
    return new CallContext(mdc, openTelemetry, accessors, deadline.clock(), deadline.end(), deadline.budgetNanos(),
        deadline.made());
  }

  /**
   * Installs this context on the current thread, in place of what it holds.
   *
   * @return closing it puts back what the thread held; close it on this thread, once (when only the
   *     deadline is installed, the thread's one reusable scope, which each close pops once)
   */
  public Scope restore() {
    Map<String, String> previousMdc = MDC.getCopyOfContextMap();
    boolean mdcChanged = mdc != null || (previousMdc != null && !previousMdc.isEmpty());
    if (mdc != null) {
      MDC.setContextMap(mdc);
    } else if (mdcChanged) {
      MDC.clear();
    }
    CurrentDeadline current = CurrentDeadline.ofThisThread();
    // Even none is installed: the thread holds no deadline of its own for the caller's work.
    current.push(deadlineClock, deadlineEnd, deadlineBudget, deadlineMade);
    AutoCloseable openTelemetryScope = null;
    AutoCloseable accessorsScope = null;
    try {
      openTelemetryScope = OPEN_TELEMETRY ? OpenTelemetryContext.makeCurrent(openTelemetry) : null;
      accessorsScope = accessors != null ? PropagatedAccessors.restore(accessors) : null;
    } catch (RuntimeException | Error failed) {
      new Scope(mdcChanged, previousMdc, openTelemetryScope, null, current).close();
      throw failed;
    }
    if (!mdcChanged && openTelemetryScope == null && accessorsScope == null) {
      Scope deadlineOnly = current.deadlineOnly;
      if (deadlineOnly == null) {
        deadlineOnly = new Scope(false, null, null, null, current);
        current.deadlineOnly = deadlineOnly;
      }
      return deadlineOnly;
    }
    return new Scope(mdcChanged, previousMdc, openTelemetryScope, accessorsScope, current);
  }

  /** The same as {@link #restore()}: a driver of the SPI installs a captured context through it. */
  @Override
  public CallerScope enter() {
    return restore();
  }

  /**
   * @param task what runs on another thread
   * @return {@code task}, run in this context and the thread's own put back afterwards
   */
  public Runnable wrap(Runnable task) {
    return () -> {
      try (Scope restored = restore()) {
        task.run();
      }
    };
  }

  /**
   * @param task what runs on another thread
   * @param <V> its value
   * @return {@code task}, run in this context and the thread's own put back afterwards
   */
  public <V> Callable<V> wrap(Callable<V> task) {
    return () -> {
      try (Scope restored = restore()) {
        return task.call();
      }
    };
  }

  /** What {@link #restore()} replaced on a thread, put back by {@link #close()}. */
  public static final class Scope implements CallerScope {
    private final boolean mdcChanged;
    private final Map<String, String> previousMdc;
    private final AutoCloseable openTelemetry;
    private final AutoCloseable accessors;
    private final CurrentDeadline deadline;

    private Scope(boolean mdcChanged, Map<String, String> previousMdc, AutoCloseable openTelemetry, AutoCloseable accessors,
        CurrentDeadline deadline) {
      this.mdcChanged = mdcChanged;
      this.previousMdc = previousMdc;
      this.openTelemetry = openTelemetry;
      this.accessors = accessors;
      this.deadline = deadline;
    }

    /** Puts back, in the reverse order of installing, what the thread held before. */
    @Override
    public void close() {
      try {
        closeQuietly(accessors);
        closeQuietly(openTelemetry);
      } finally {
        deadline.pop();
        if (mdcChanged) {
          if (previousMdc == null || previousMdc.isEmpty()) {
            MDC.clear();
          } else {
            MDC.setContextMap(previousMdc);
          }
        }
      }
    }

    private static void closeQuietly(AutoCloseable scope) {
      if (scope == null) {
        return;
      }
      try {
        scope.close();
      } catch (RuntimeException | Error failure) {
        throw failure;
      } catch (Exception checked) {
        // Neither library's scope declares a checked exception; AutoCloseable's signature does.
        throw new IllegalStateException(checked);
      }
    }
  }
}
