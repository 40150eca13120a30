package dev.brace.runtime.internal.attempt;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.CallMetrics;

/**
 * How one call's attempt outcomes are reported: the attempt's duration to the call's handle on the
 * bound metrics listener, and, only for a metrics event listener, a {@code call.succeeded} or
 * {@code call.failed} event naming every instance the attempt went through. Never logged: a line
 * per attempt is not worth it.
 *
 * <p>Immutable and thread-safe.
 */
final class AttemptReports {
  private final String callName;
  private final EventBus events;
  /** The call's handle on the bound metrics listener, shared with its call sequence. */
  private final BoundMetrics<CallMetrics> metrics;
  /** The instances named in the events; null where the call has none. */
  private final String breaker;
  private final String limiter;
  private final String bulkhead;
  private final String timeout;
  private final String retry;
  private final String hedge;

  /**
   * @param callName the call
   * @param events the registry's event boundary, which also knows the bound metrics listener
   * @param breaker the call's breaker name (a keyed family's), or null; so are the others when absent
   * @param limiter its limiter's name
   * @param bulkhead its bulkhead's name
   * @param timeout its timeout's name
   * @param retry its retry's name
   * @param hedge its hedge's name
   */
  AttemptReports(String callName, EventBus events, String breaker, String limiter, String bulkhead, String timeout,
      String retry, String hedge) {
    this.callName = callName;
    this.events = events;
    this.metrics = BoundMetrics.ofCall(events, callName);
    this.breaker = breaker;
    this.limiter = limiter;
    this.bulkhead = bulkhead;
    this.timeout = timeout;
    this.retry = retry;
    this.hedge = hedge;
  }

  /** @return whether anyone meters attempts (typed or through events): only then is an untimed attempt timed for it */
  boolean metered() {
    return events.metricsListening();
  }

  /** @return the call's handle on the bound metrics listener */
  BoundMetrics<CallMetrics> metrics() {
    return metrics;
  }

  /**
   * @param thrown what the attempt failed with, or null when it succeeded
   * @param duration how long it took, or {@link AttemptState#UNTIMED}
   */
  void outcome(Throwable thrown, long duration) {
    CallMetrics bound = metrics.get();
    if (bound != null && duration != AttemptState.UNTIMED) {
      if (thrown == null) {
        bound.attemptSucceeded(duration);
      } else {
        bound.attemptFailed(duration);
      }
    }
    EventKind kind = thrown == null ? EventKind.CALL_SUCCEEDED : EventKind.CALL_FAILED;
    if (events.enabled(kind)) {
      emit(kind, thrown == null ? null : ExceptionFilter.unwrap(thrown), duration);
    }
  }

  /**
   * The event of a successful attempt, for whoever listens; its metrics are reported with the
   * call's end ({@link CallMetrics#attemptAndCallSucceeded}).
   *
   * @param duration how long it took
   */
  void succeededEvent(long duration) {
    if (events.enabled(EventKind.CALL_SUCCEEDED)) {
      emit(EventKind.CALL_SUCCEEDED, null, duration);
    }
  }

  private void emit(EventKind kind, Throwable failure, long duration) {
    events.emit(kind, callName,
        "duration_ns", duration == AttemptState.UNTIMED ? null : duration,
        "circuitbreaker", breaker,
        "ratelimit", limiter,
        "bulkhead", bulkhead,
        "timeout", timeout,
        "retry", retry,
        "hedge", hedge,
        "exception", failure == null ? null : failure.getClass().getName(),
        "message", failure == null ? null : failure.getMessage());
  }
}
