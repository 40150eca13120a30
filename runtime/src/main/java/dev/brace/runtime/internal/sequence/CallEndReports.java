package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Refusal;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.CallMetrics;

/**
 * How one call's end is reported, once per call: its duration and outcome (success, failure, or the
 * instance that decided it: a fallback, a refusal of the call's own breaker, limiter or bulkhead,
 * its timeout) to the bound metrics listener, and as a {@code call.ended} event to whoever listens.
 *
 * <p>Immutable and thread-safe.
 */
final class CallEndReports {
  private final String callName;
  private final TimeSource time;
  private final EventBus events;
  /** The call's handle on the bound metrics listener, shared with its pipeline. */
  private final BoundMetrics<CallMetrics> metrics;
  private final AttemptPipeline attempts;
  /** Null unless the call has a fallback method to answer with. */
  private final FallbackPolicy fallback;

  CallEndReports(String callName, TimeSource time, EventBus events, AttemptPipeline attempts, FallbackPolicy fallback) {
    this.callName = callName;
    this.time = time;
    this.events = events;
    this.metrics = attempts.metrics();
    this.attempts = attempts;
    this.fallback = fallback;
  }

  /**
   * @param started the call's start
   * @param outcomeAt when its last attempt's outcome was recorded, or {@link AttemptState#UNTIMED}: then the clock is read
   * @param failure what ended the call, or null when it returned a result
   */
  void report(long started, long outcomeAt, Throwable failure) {
    long duration = (outcomeAt != AttemptState.UNTIMED ? outcomeAt : time.nanoTime()) - started;
    Kind decidedBy = null;
    String by = null;
    if (failure != null) {
      Throwable cause = ExceptionFilter.unwrap(failure);
      Kind refusedBy = cause instanceof Refusal ? refusedHere((Refusal) cause) : null;
      if (CallFallback.answerable(fallback, failure) != null) {
        decidedBy = Kind.FALLBACK;
        by = fallback.config().name();
      } else if (refusedBy != null) {
        decidedBy = refusedBy;
        by = ((Refusal) cause).instance();
      } else if (cause instanceof TimeoutExceededException && !(cause instanceof DeadlineExceededException)
          && attempts.timeoutName() != null
          && attempts.timeoutName().equals(((TimeoutExceededException) cause).instance())) {
        decidedBy = Kind.TIMEOUT;
        by = attempts.timeoutName();
      }
    }
    CallMetrics bound = metrics.get();
    if (bound != null) {
      reportEndTo(bound, failure, decidedBy, by, duration);
    }
    if (events.enabled(EventKind.CALL_ENDED)) {
      emitEnded(failure, decidedBy, by, duration);
    }
  }

  /**
   * The end of a call whose first attempt, made without waiting, succeeded: the attempt's and the call's
   * durations to the bound metrics listener in one report, since the one outcome ends both.
   *
   * @param started the call's start, or {@link AttemptState#UNTIMED} when nobody metered it as it
   *     began: then only the attempt is reported
   * @param bound the call's handle on the bound metrics listener, or null
   * @param attemptNanos how long the attempt took
   * @param outcomeAt the instant of its outcome, which ends the call
   */
  void succeededWithoutWaiting(long started, CallMetrics bound, long attemptNanos, long outcomeAt) {
    if (started == AttemptState.UNTIMED) {
      if (bound != null) {
        bound.attemptSucceeded(attemptNanos);
      }
      return;
    }
    long duration = outcomeAt - started;
    if (bound != null) {
      bound.attemptAndCallSucceeded(attemptNanos, duration);
    }
    if (events.enabled(EventKind.CALL_ENDED)) {
      emitEnded(null, null, null, duration);
    }
  }

  private void emitEnded(Throwable failure, Kind decidedBy, String by, long duration) {
    events.emit(EventKind.CALL_ENDED, callName, "outcome", outcomeOf(failure, decidedBy), "duration_ns", duration,
        "by_kind", decidedBy == null ? null : decidedBy.key(), "by", by);
  }

  /** The outcome as the bound metrics listener takes it: one method per outcome. */
  private static void reportEndTo(CallMetrics bound, Throwable failure, Kind decidedBy, String by, long duration) {
    if (failure == null) {
      bound.succeeded(duration);
    } else if (decidedBy == null) {
      bound.failed(duration);
    } else if (decidedBy == Kind.FALLBACK) {
      bound.fellBack(by, duration);
    } else if (decidedBy == Kind.TIMEOUT) {
      bound.timedOut(by, duration);
    } else {
      bound.rejected(decidedBy, by, duration);
    }
  }

  /** @return the outcome as {@code call.ended} names it */
  private static String outcomeOf(Throwable failure, Kind decidedBy) {
    if (failure == null) {
      return "success";
    }
    if (decidedBy == null) {
      return "failure";
    }
    switch (decidedBy) {
      case FALLBACK:
        return "fallback";
      case TIMEOUT:
        return "timeout";
      default:
        return "rejected";
    }
  }

  /** @return the kind of this call's own instance that refused, or null when the refusal came from further down */
  private Kind refusedHere(Refusal refusal) {
    String instance = refusal.instance();
    if (refusal instanceof CircuitOpenException && inFamily(instance, attempts.breakerName())) {
      return Kind.CIRCUITBREAKER;
    }
    if (refusal instanceof RateLimitedException && inFamily(instance, attempts.limiterName())) {
      return Kind.RATELIMIT;
    }
    if (refusal instanceof BulkheadFullException && instance != null && instance.equals(attempts.bulkheadName())) {
      return Kind.BULKHEAD;
    }
    return null;
  }

  /** {@code tenant[acme]} and {@code tenant} are of the family {@code tenant}. */
  private static boolean inFamily(String instance, String family) {
    return family != null && instance != null && instance.startsWith(family)
        && (instance.length() == family.length() || instance.charAt(family.length()) == '[');
  }
}
