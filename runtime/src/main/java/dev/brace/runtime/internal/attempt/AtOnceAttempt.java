package dev.brace.runtime.internal.attempt;

import dev.brace.Criticality;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.context.CurrentDeadline;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DefaultCircuitBreaker;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.metrics.CallMetrics;
import dev.brace.runtime.spi.OutcomeClassifier;
import dev.brace.runtime.support.SlotInvoker;

/**
 * An attempt made at once, on the caller's thread, with nothing kept but in locals: the happy
 * path of a call whose first attempt can take everything it needs without waiting and, for an
 * asynchronous call, whose delegate answers with a stage already complete. The
 * breaker must be closed, the limiter's token there now and the bulkhead's permit free; the call's
 * arguments go to the delegate as the parameters they came as, so the call needs no frame.
 *
 * <p>It is the {@link AttemptPipeline}'s own admission, done in the same order with the same
 * policies; whatever it cannot do at once it either never starts ({@link #NOT_AT_ONCE}: nothing
 * taken, the call goes the staged way) or {@linkplain HandOver hands over} to the pipeline with
 * what it holds (a full bulkhead, a failure, a stage still in flight), which goes on from there as if it had taken the
 * attempt that far itself. Only a pipeline with nothing that bounds, times or injects into an
 * attempt has one ({@link #of}), and it steps aside while the thread is under a deadline.
 *
 * <p>Immutable and thread-safe.
 */
public final class AtOnceAttempt {
  /** The attempt did not start: nothing was taken or reported. */
  public static final Object NOT_AT_ONCE = new Object();

  /** What {@link Settled#valueNow} answers for a delegate's result that is still to come. */
  public static final Object IN_FLIGHT = new Object();

  /** How an asynchronous driver reads the delegate's return: its value if it has settled with one. */
  public interface Settled {
    /**
     * @param returned what the delegate returned (a stage)
     * @param callName the call, for the failure of a delegate that returned no stage
     * @return its value when it has completed with one; {@link #IN_FLIGHT} when it has not, or failed
     * @throws Throwable when {@code returned} is no stage at all: the attempt failed
     */
    Object valueNow(Object returned, String callName) throws Throwable;
  }

  /**
   * How a metered call that ended with its attempt made at once is told: the one thing a call needs
   * afterwards. A call nobody meters is not told at all.
   */
  public interface CallEnd {
    /**
     * @param started the call's start, as its sequence began it, or {@link AttemptTicket#UNTIMED}
     * @param metrics the call's handle on the bound metrics listener, or null when none is bound
     * @param attemptNanos how long the attempt took
     * @param outcomeAt the instant the attempt's outcome was recorded, which ends the call
     */
    void succeededAt(long started, CallMetrics metrics, long attemptNanos, long outcomeAt);
  }

  private final AttemptPipeline pipeline;
  // The pipeline's parts the attempt reads, each kept here so that reaching it is one load.
  private final boolean followsDeadlines;
  private final TimeSource time;
  /** The call's one breaker, or null when it has none. */
  private final DefaultCircuitBreaker breaker;
  /** The call's one limiter, or null when it has none. */
  private final TokenBucketRateLimiter limiter;
  private final SemaphoreBulkhead bulkhead;
  private final Criticality.Level criticality;
  private final String callName;
  private final AttemptReports reports;
  private final EventBus events;

  private AtOnceAttempt(AttemptPipeline pipeline, DefaultCircuitBreaker breaker, TokenBucketRateLimiter limiter) {
    this.pipeline = pipeline;
    this.followsDeadlines = pipeline.deadlines != null;
    this.time = pipeline.time;
    this.breaker = breaker;
    this.limiter = limiter;
    this.bulkhead = pipeline.bulkhead;
    this.criticality = pipeline.criticality;
    this.callName = pipeline.callName;
    this.reports = pipeline.reports;
    this.events = pipeline.reports.events();
  }

  /**
   * @return the pipeline's attempt made at once, or null when some pattern of the call always needs
   *     the staged way: a timeout, a latency-judging breaker, an adaptive bulkhead, fault injection,
   *     a keyed breaker or limiter, or one of another kind (a shared backend's), which only the
   *     staged way knows how to ask
   */
  static AtOnceAttempt of(AttemptPipeline pipeline) {
    if (pipeline.timeout != null || pipeline.timesForBreaker || pipeline.adaptiveBulkhead || pipeline.faults != null) {
      return null;
    }
    // A family of one keeps its instance for good (reconfiguration reshapes it in place), so its
    // kind is decided here once rather than on every call; a keyed family has no single instance.
    Object breaker = pipeline.breakers == null ? null : pipeline.breakers.single();
    Object limiter = pipeline.limiters == null ? null : pipeline.limiters.single();
    boolean breakerAtOnce = pipeline.breakers == null || breaker instanceof DefaultCircuitBreaker;
    boolean limiterAtOnce = pipeline.limiters == null || limiter instanceof TokenBucketRateLimiter;
    return breakerAtOnce && limiterAtOnce
        ? new AtOnceAttempt(pipeline, (DefaultCircuitBreaker) breaker, (TokenBucketRateLimiter) limiter)
        : null;
  }

  /**
   * Makes the attempt, if it can be made at once, and ends the call with it when it succeeds.
   *
   * @param started the call's start, passed to {@code end}
   * @param end what is told of the call's end
   * @param settled for an asynchronous call, what reads the value of the stage the delegate
   *     returned; null for a synchronous one, whose result is what the delegate returned
   * @return the result; {@link #NOT_AT_ONCE}; or a {@link HandOver} for the pipeline to
   *     {@linkplain AttemptPipeline#resume resume}
   */
  public Object call(SlotInvoker invoker, int method, Object target, Object a, Object b, Object c, Object d, long x,
      long y, long started, CallEnd end, Settled settled) {
    if (followsDeadlines && CurrentDeadline.ofThisThread().present()) {
      return NOT_AT_ONCE;
    }
    DefaultCircuitBreaker breaker = this.breaker;
    Object breakerTicket = null;
    if (breaker != null && (breakerTicket = breaker.acquireIfClosed()) == null) {
      return NOT_AT_ONCE;
    }
    TokenBucketRateLimiter limiter = this.limiter;
    long admittedAt = AttemptTicket.UNTIMED;
    if (limiter != null) {
      long now = time.nanoTime();
      if (!limiter.tryTakeAt(now)) {
        // A closed circuit's ticket holds nothing: there is nothing to give back.
        return NOT_AT_ONCE;
      }
      admittedAt = now;
    }
    SemaphoreBulkhead bulkhead = this.bulkhead;
    if (bulkhead != null && !bulkhead.tryAcquire(criticality)) {
      return HandOver.atBulkhead(breaker, breakerTicket, limiter, admittedAt);
    }
    boolean metered = events.metricsListening();
    if (admittedAt == AttemptTicket.UNTIMED && metered) {
      admittedAt = time.nanoTime();
    }
    Object result;
    try {
      Object returned = invoker.invoke(method, target, a, b, c, d, x, y);
      result = settled == null ? returned : settled.valueNow(returned, callName);
      if (result == IN_FLIGHT) {
        return HandOver.inFlight(breaker, breakerTicket, limiter, bulkhead != null, admittedAt, returned);
      }
    } catch (Throwable failure) {
      return HandOver.failed(breaker, breakerTicket, limiter, bulkhead != null, admittedAt, failure);
    }
    return succeeded(breaker, breakerTicket, limiter, bulkhead, metered, admittedAt, result, started, end);
  }

  /**
   * As {@link AttemptPipeline#succeeded}, then the call's end, both reported in one step while
   * anyone meters; what either throws fails the attempt.
   *
   * @param metered whether anyone metered attempts when this one was admitted: it was timed then
   */
  private Object succeeded(DefaultCircuitBreaker breaker, Object breakerTicket, TokenBucketRateLimiter limiter,
      SemaphoreBulkhead bulkhead, boolean metered, long admittedAt, Object result, long started, CallEnd end) {
    long ended = metered ? time.nanoTime() : AttemptTicket.UNTIMED;
    try {
      try {
        if (breaker != null) {
          breaker.onResult(breakerTicket, result, OutcomeClassifier.NOT_TIMED);
        }
      } finally {
        if (bulkhead != null) {
          bulkhead.release();
        }
      }
      // The attempt's duration is reported below, with the call's end.
      pipeline.afterSuccess(limiter, false, AttemptTicket.UNTIMED);
      if (metered) {
        long attemptNanos = ended - admittedAt;
        CallMetrics metrics = reports.metrics().get();
        reports.succeededEvent(attemptNanos);
        end.succeededAt(started, metrics, attemptNanos, ended);
      }
    } catch (Throwable failure) {
      return HandOver.recordedFailure(failure, ended);
    }
    return result;
  }
}
