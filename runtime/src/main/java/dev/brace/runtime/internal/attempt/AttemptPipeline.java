package dev.brace.runtime.internal.attempt;

import dev.brace.Criticality;
import dev.brace.Timeout;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.CallerInterrupted;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.Throttling;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.CallMetrics;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.OutcomeClassifier;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.support.SlotInvoker;

/**
 * One attempt's way through the patterns inside the retry and the hedge — circuit breaker, rate
 * limiter, bulkhead, timeout — and back: admission, the attempt's timing, its outcome and the
 * release of everything it took. Written once; every driver (synchronous, asynchronous, both hedge
 * groups, the reactive one) walks an attempt through it and differs only in how it waits and how
 * it calls the delegate.
 *
 * <p>Admission is a question that never blocks ({@link #admit}): admitted, wait (a token is on its
 * way, a full bulkhead may free a permit within its {@code maxWait}), or refused. A refusal by the
 * limiter or the bulkhead gives back what the breaker handed out, without an outcome. The clock is
 * read once at admission, and only when a pattern needs the instant: the limiter admits at it, the
 * timeout counts from it, a latency-judging breaker, an adaptive bulkhead and metrics time the
 * attempt from it (again after a wait, so only the attempt itself is timed).
 *
 * <p>Outcomes ({@link #succeeded}, {@link #failed}) are judged by the breaker, teach an adaptive
 * bulkhead and an adaptive limiter, and reach metrics listeners; {@link #abandon} ends an attempt
 * that has no outcome (the caller gave up, another hedge decided). Each releases every part the
 * attempt holds exactly once.
 *
 * <p>Immutable and thread-safe; a call's patterns it does not use are null.
 */
public final class AttemptPipeline {
  /** What {@link #callWithoutWaiting} answers when the attempt did not start: nothing was taken or reported. */
  public static final Object NOT_NOW = new Object();

  /** What {@link #takeNow} answers for an attempt it admitted, of a call with no breaker (so no breaker's ticket). */
  public static final Object TAKEN = new Object();

  final String callName;
  final TimeSource time;
  final KeyedFamily<CircuitBreakerInstance> breakers;
  final KeyedFamily<RateLimiterInstance> limiters;
  final SemaphoreBulkhead bulkhead;
  final TimeoutPolicy timeout;
  /** How long each attempt may take (its timeout, its caller's deadline) and what it passes on. */
  final AttemptBounds bounds;
  /** The waits of admission: a limiter's token reserved ahead, a full bulkhead's permit. */
  private final AdmissionWaits waits;
  final Throttling throttling;
  final Criticality.Level criticality;
  /** The breaker judges latency ({@code slowCall}): every attempt is timed. */
  final boolean timesForBreaker;
  /** The breaker counts results too ({@code onResult}). */
  private final boolean judgesResults;
  final boolean adaptiveBulkhead;
  /** A timeout, a latency-judging breaker or an adaptive bulkhead need the admission instant. */
  private final boolean needsAdmissionTime;
  /** Each outcome's duration to the bound metrics listener, and its event to a metrics event listener. */
  final AttemptReports reports;
  /**
   * Whether an attempt may be tried without waiting and without a state ({@link
   * #callWithoutWaiting}): false when a pattern always needs a state (a timeout, a
   * latency-judging breaker, an adaptive bulkhead, fault injection, a keyed breaker or limiter).
   */
  private final boolean triesWithoutWaiting;
  /**
   * Whether a synchronous attempt may be, though the call has a timeout: one that interrupts the
   * caller's thread, which needs no state when nothing else does ({@link AttemptBounds#invokeInLocals}).
   */
  private final boolean triesTimedWithoutWaiting;
  /** The one breaker and limiter of a call that tries either, each null when it has none. */
  private final CircuitBreakerInstance onlyBreaker;
  private final RateLimiterInstance onlyLimiter;

  AttemptPipeline(AttemptPipelineBuilder builder) {
    this.callName = builder.callName;
    this.time = builder.time;
    this.breakers = builder.breakers;
    this.limiters = builder.limiters;
    this.bulkhead = builder.bulkhead;
    this.timeout = builder.timeout;
    this.bounds = new AttemptBounds(builder.timeout, builder.deadlines, builder.time, builder.faults);
    this.throttling = builder.limiters == null ? null : builder.throttling;
    this.criticality = builder.criticality;
    this.waits = new AdmissionWaits(time, limiters, bulkhead, criticality, bounds);
    this.timesForBreaker = builder.breakers != null && builder.timesForBreaker;
    this.judgesResults = builder.breakers != null && builder.judgesResults;
    this.adaptiveBulkhead = bulkhead != null && bulkhead.isAdaptive();
    this.needsAdmissionTime = timeout != null || timesForBreaker || adaptiveBulkhead;
    this.reports = new AttemptReports(callName, builder.events, breakerName(), limiterName(), bulkheadName(), timeoutName(),
        builder.retryName, builder.hedgeName);
    // A family of one keeps its instance for good (reconfiguration reshapes it in place), so it is
    // read here once rather than on every call; a keyed family has no single instance.
    boolean keyed = (breakers != null && breakers.isKeyed()) || (limiters != null && limiters.isKeyed());
    boolean stateless = !timesForBreaker && !adaptiveBulkhead && builder.faults == null && !keyed;
    this.triesWithoutWaiting = stateless && timeout == null;
    this.triesTimedWithoutWaiting = stateless && timeout != null && timeout.mode() == Timeout.Mode.INTERRUPT;
    this.onlyBreaker = stateless && breakers != null ? breakers.single() : null;
    this.onlyLimiter = stateless && limiters != null ? limiters.single() : null;
  }

  /**
   * @param callName the call, for events
   * @param time the registry's clock
   * @param events the event boundary
   * @return a builder of a pipeline with no pattern yet
   */
  public static AttemptPipelineBuilder builder(String callName, TimeSource time, EventBus events) {
    return new AttemptPipelineBuilder(callName, time, events);
  }

  // ---- admission ----

  /**
   * Takes the attempt as far through breaker, limiter and bulkhead as it can go now, from where it
   * stopped last time. Never waits.
   *
   * @param state the attempt's state, {@linkplain AttemptState#start started} for this attempt
   * @return whether it is admitted, must wait (for {@link AttemptState#waitNanos()}), or is refused
   *     ({@link AttemptState#refusal()}; everything taken is given back then)
   * @throws Error as it came; everything taken is given back
   */
  public Admission admit(AttemptState state) {
    if (state.stage == AttemptState.ADMITTED) {
      throw new IllegalStateException("attempt of " + callName + " already admitted");
    }
    try {
      switch (state.stage) {
        case AttemptState.BREAKER:
          bounds.enter(state);
          if (breakers != null) {
            Object breakerTicket = breakers.forKey(state.keys.breaker()).acquire();
            // The state names the breaker that judges the outcome: a shared breaker deciding
            // locally during an outage hands out its local breaker's tickets.
            CircuitBreakerInstance owner = CircuitBreakerInstance.ownerOf(breakerTicket);
            if (state.breakerTicket != breakerTicket) {
              state.breakerTicket = breakerTicket;
            }
            if (state.breaker != owner) {
              state.breaker = owner;
            }
            state.holdsBreaker = true;
          }
          state.stage = AttemptState.LIMITER;
          // fall through
        case AttemptState.LIMITER:
          if (limiters != null && !waits.reserveToken(state)) {
            return Admission.WAIT;
          }
          state.stage = AttemptState.BULKHEAD;
          // fall through
        case AttemptState.TOKEN:
          if (state.stage == AttemptState.TOKEN && !waits.tokenArrived(state)) {
            return Admission.WAIT;
          }
          state.stage = AttemptState.BULKHEAD;
          // fall through
        case AttemptState.BULKHEAD:
        case AttemptState.PERMIT:
          if (bulkhead != null && !waits.takePermit(state)) {
            return Admission.WAIT;
          }
          // fall through
        default:
          admitted(state);
          return Admission.ADMITTED;
      }
    } catch (RuntimeException refused) {
      giveBack(state);
      state.refusal = refused;
      return Admission.REFUSED;
    } catch (Error fatal) {
      giveBack(state);
      throw fatal;
    }
  }

  /**
   * Admits an attempt on the calling thread, waiting there as admission asks: sleeping until a
   * reserved token arrives, blocking for a bulkhead permit (served in arrival order) up to its
   * {@code maxWait}.
   *
   * @param state the attempt's state, started
   * @throws RuntimeException the refusal, which holds nothing; a wait the caller's interrupt cut
   *     short is refused too, with the interrupt as its cause and the interrupt flag set again
   */
  public void admitBlocking(AttemptState state) {
    while (true) {
      Admission admission = admit(state);
      if (admission == Admission.ADMITTED) {
        return;
      }
      if (admission == Admission.REFUSED) {
        throw takeRefusal(state);
      }
      try {
        if (waits.awaitOnThisThread(state)) {
          admitted(state);
          return;
        }
      } catch (RuntimeException | Error refused) {
        giveBack(state);
        throw refused;
      }
    }
  }

  /**
   * @param sync whether the call is synchronous: its attempt runs on the caller's thread, which a
   *     timeout may interrupt
   * @return whether {@link #callWithoutWaiting} may be asked: no pattern of the call needs a state
   *     for it (an asynchronous call's timeout does, as do {@link #takeNow}'s direct callers')
   */
  public boolean triesWithoutWaiting(boolean sync) {
    return triesWithoutWaiting || (sync && triesTimedWithoutWaiting);
  }

  /**
   * An attempt on the caller's thread that takes breaker, limiter and bulkhead only if each is
   * there now ({@link #takeNow}), holding what it took in locals: no state object, no frame, the call's
   * arguments passed on as the parameters they came as. A successful attempt is recorded as {@link
   * #succeeded} records it, and ends the call through {@code end}.
   *
   * <p>What it cannot take now it does not start ({@link #NOT_NOW}). What it cannot finish now it
   * leaves in a state made there, which the driver {@linkplain AttemptState#takeOver takes over}: a full
   * bulkhead (the breaker's ticket and the token held), a delegate's failure (everything held, not
   * yet recorded), a stage still in flight (everything held), or what recording a success threw
   * (recorded). A thread under a deadline never tries: it needs a state's bounds. A synchronous
   * call's timeout that interrupts is armed around the delegate ({@link AttemptBounds#invokeInLocals}).
   *
   * @param started the call's start, passed to {@code end}
   * @param end what is told of the call's end
   * @param settled for an asynchronous call, what reads the value of the stage the delegate
   *     returned; null for a synchronous one, whose result is what the delegate returned
   * @return the result (for an asynchronous call, the stage the delegate returned, settled with
   *     it); {@link #NOT_NOW}; or an {@link AttemptState} the attempt goes on with
   */
  public Object callWithoutWaiting(SlotInvoker invoker, int method, Object target, Object a, Object b, Object c,
      Object d, long x, long y, long started, CallEnd end, SettledValue settled) {
    long admittedAt = instantToTakeNowAt();
    Object taken = takeNow(admittedAt);
    if (taken == NOT_NOW || taken instanceof AttemptState) {
      return taken;
    }
    Object returned;
    Object result;
    try {
      returned = timeout == null
          ? invoker.invoke(method, target, a, b, c, d, x, y)
          : bounds.invokeInLocals(invoker, method, target, a, b, c, d, x, y, admittedAt);
      result = settled == null ? returned : settled.valueNow(returned, callName);
      if (result == SettledValue.IN_FLIGHT) {
        AttemptState left = leftAdmitted(taken, admittedAt);
        left.pending = returned;
        return left;
      }
    } catch (Throwable failure) {
      return failedInLocals(taken, admittedAt, failure);
    }
    Object recorded = succeededInLocals(taken, admittedAt, result, started, end);
    // An asynchronous call answers with the stage itself, settled: its driver need not make another.
    return settled == null || recorded instanceof AttemptState ? recorded : returned;
  }

  /**
   * The instant an attempt made without waiting is admitted at, read before it takes anything: the
   * limiter admits at it, a timeout counts from it, and a metered call is timed from it, the
   * attempt and (for a call whose generated method calls its delegate itself) the call alike, as
   * nothing waits in between.
   *
   * @return the instant, or {@link AttemptState#UNTIMED} when neither the limiter, the timeout nor metrics need one
   */
  public long instantToTakeNowAt() {
    return onlyLimiter != null || timeout != null || reports.metered() ? time.nanoTime() : AttemptState.UNTIMED;
  }

  /**
   * Takes breaker, limiter and bulkhead only if each is there now ({@code takeNow}), in
   * admission's order. Asked only of a pipeline that {@linkplain #triesWithoutWaiting tries}.
   *
   * @param now from {@link #instantToTakeNowAt}; when it is {@link AttemptState#UNTIMED} though
   *     the attempt needs an instant now (a metrics listener was bound since), nothing is taken
   * @return what the attempt holds, admitted: the breaker's ticket, or {@link #TAKEN} for a call
   *     with no breaker; {@link #NOT_NOW} when nothing is held (a thread under a deadline never
   *     tries: it needs a state's bounds); or an {@link AttemptState} left at a full bulkhead,
   *     holding the breaker's ticket and the token, for the driver to {@linkplain AttemptState#takeOver take over}
   */
  public Object takeNow(long now) {
    if (bounds.threadUnderDeadline()) {
      return NOT_NOW;
    }
    RateLimiterInstance limiter = onlyLimiter;
    if (now == AttemptState.UNTIMED && (limiter != null || reports.metered())) {
      return NOT_NOW;
    }
    CircuitBreakerInstance breaker = onlyBreaker;
    Object breakerTicket = null;
    if (breaker != null && (breakerTicket = breaker.takeNow()) == null) {
      return NOT_NOW;
    }
    if (limiter != null && !limiter.takeNow(now)) {
      if (breakerTicket != null) {
        // Nothing of the attempt reached the dependency: the breaker's ticket goes back unjudged.
        breaker.release(breakerTicket);
      }
      return NOT_NOW;
    }
    if (bulkhead != null && !bulkhead.takeNow(criticality)) {
      return AttemptState.leftAt(AttemptState.BULKHEAD, breaker, breakerTicket, limiter, false, now);
    }
    return breaker == null ? TAKEN : breakerTicket;
  }

  /**
   * Leaves an attempt {@link #takeNow} admitted, whose delegate threw, in a state for the driver
   * to {@linkplain AttemptState#takeOver take over}: the failure is recorded there, as {@link #failed} records it.
   *
   * @param taken what {@link #takeNow} answered
   * @param admittedAt the instant passed to it
   * @param failure what the delegate threw
   * @return the attempt's state, holding everything the attempt took
   */
  public AttemptState failedInLocals(Object taken, long admittedAt, Throwable failure) {
    AttemptState left = leftAdmitted(taken, admittedAt);
    left.failure = failure;
    return left;
  }

  private AttemptState leftAdmitted(Object taken, long admittedAt) {
    return AttemptState.leftAt(AttemptState.ADMITTED, onlyBreaker, taken == TAKEN ? null : taken, onlyLimiter,
        bulkhead != null, admittedAt);
  }

  /**
   * Records the success of an attempt {@link #takeNow} admitted, as {@link #succeeded} does, then
   * the call's end, both reported in one step while anyone meters (an attempt admitted untimed is
   * not reported: nobody metered it then).
   *
   * @param taken what {@link #takeNow} answered
   * @param admittedAt the instant passed to it
   * @param result what the delegate returned, for the breaker's result predicate; a call whose
   *     breaker has one passes the result ({@link #judgesResults})
   * @param started the call's start, passed to {@code end}
   * @param end what is told of the call's end
   * @return {@code result}; or, when recording threw, a state holding that failure, recorded
   */
  public Object succeededInLocals(Object taken, long admittedAt, Object result, long started, CallEnd end) {
    boolean metered = admittedAt != AttemptState.UNTIMED && reports.metered();
    long ended = metered ? time.nanoTime() : AttemptState.UNTIMED;
    try {
      try {
        if (taken != TAKEN) {
          onlyBreaker.onResult(taken, result, OutcomeClassifier.NOT_TIMED);
        }
      } finally {
        if (bulkhead != null) {
          bulkhead.release();
        }
      }
      // The attempt's duration is reported below, with the call's end.
      afterSuccess(onlyLimiter, false, AttemptState.UNTIMED);
      if (metered) {
        long attemptNanos = ended - admittedAt;
        CallMetrics metrics = reports.metrics().get();
        reports.succeededEvent(attemptNanos);
        end.succeededAt(started, metrics, attemptNanos, ended);
      }
    } catch (Throwable failure) {
      AttemptState left = new AttemptState();
      left.failure = failure;
      left.failureRecorded = true;
      left.outcomeAt = ended;
      return left;
    }
    return result;
  }

  /**
   * @return whether the call's breaker judges results ({@code onResult}): an attempt's success is
   *     then recorded only with its result at hand
   */
  public boolean judgesResults() {
    return judgesResults;
  }

  private static RuntimeException takeRefusal(AttemptState state) {
    RuntimeException refusal = state.refusal;
    clear(state);
    return refusal;
  }

  private void admitted(AttemptState state) {
    state.stage = AttemptState.ADMITTED;
    if (adaptiveBulkhead) {
      state.inFlight = bulkhead.inFlight();
    }
    if (state.waited || state.admittedAt == AttemptState.UNTIMED) {
      boolean timed = needsAdmissionTime || reports.metered() || bounds.needsAdmissionTime(state);
      state.admittedAt = timed ? time.nanoTime() : AttemptState.UNTIMED;
    }
    bounds.admitted(state);
  }

  /** @return how long each attempt may take and what it passes on: drivers run and launch attempts through it */
  public AttemptBounds bounds() {
    return bounds;
  }

  // ---- the outcome ----

  /**
   * Records an attempt that returned and releases what it holds. The breaker's result predicate,
   * if it has one, may count the result as a failure.
   *
   * @param state the admitted attempt's state; ready for the next attempt afterwards
   * @param result what the delegate returned
   * @throws RuntimeException what the breaker's result predicate threw: the attempt then failed
   *     with it (everything is released all the same)
   */
  public void succeeded(AttemptState state, Object result) {
    boolean metered = reports.metered();
    long ended = endOf(state, metered);
    long duration = durationOf(state, ended);
    RateLimiterInstance limiter = state.limiter;
    try {
      if (state.holdsBreaker) {
        state.breaker.onResult(state.breakerTicket, result, elapsedForBreaker(state, ended));
      }
    } finally {
      returnPermit(state, null, ended);
      clear(state);
      state.outcomeAt = ended;
    }
    afterSuccess(limiter, metered, duration);
  }

  /** After a success is judged and its permit back, with a state or without: throttling eased, the attempt reported. */
  private void afterSuccess(RateLimiterInstance limiter, boolean metered, long duration) {
    if (throttling != null) {
      limiter.succeeded();
    }
    if (metered) {
      reports.outcome(null, duration);
    }
  }

  /**
   * Records a failed attempt (the breaker judges whether it counts) and releases what it holds. A
   * caller interrupted while it waited for an abandoning attempt is not an outcome of the
   * dependency, nor is a call out of its caller's deadline: both end as {@link #abandon} ends them.
   *
   * @param state the admitted attempt's state; ready for the next attempt afterwards
   * @param failure what the attempt threw
   * @return the failure it ends with ({@link AttemptBounds#judged})
   */
  public Throwable failed(AttemptState state, Throwable failure) {
    failure = bounds.judged(state, failure);
    if (failure instanceof dev.brace.runtime.DeadlineExceededException) {
      giveBack(state);
      return failure;
    }
    boolean metered = reports.metered();
    long ended = endOf(state, metered);
    long duration = durationOf(state, ended);
    RateLimiterInstance limiter = state.limiter;
    try {
      if (state.holdsBreaker) {
        if (CallerInterrupted.is(failure)) {
          state.breaker.release(state.breakerTicket);
        } else {
          state.breaker.onFailure(state.breakerTicket, failure, elapsedForBreaker(state, ended));
        }
      }
    } finally {
      returnPermit(state, failure, ended);
      clear(state);
      state.outcomeAt = ended;
    }
    if (throttling != null) {
      long blockNanos = throttling.judge(failure);
      if (blockNanos != Throttling.NOT_THROTTLED) {
        limiter.throttled(blockNanos);
      }
    }
    if (metered) {
      reports.outcome(failure, duration);
    }
    return failure;
  }

  /**
   * Ends an attempt without an outcome, wherever it stands: it never reached the dependency, or
   * what it ended with is not the dependency's doing (the caller gave up, another hedge decided).
   * A reserved token is given back, the permit returned (an adaptive bulkhead learns nothing) and
   * the breaker's ticket released.
   *
   * @param state the attempt's state; ready for the next attempt afterwards
   */
  public void abandon(AttemptState state) {
    giveBack(state);
  }

  private void giveBack(AttemptState state) {
    try {
      if (state.reserved) {
        state.limiter.cancelReservation(state.reservation);
      }
      if (state.holdsPermit) {
        if (adaptiveBulkhead) {
          bulkhead.abandoned();
        } else {
          bulkhead.release();
        }
      }
    } finally {
      boolean holdsBreaker = state.holdsBreaker;
      clear(state);
      if (holdsBreaker) {
        state.breaker.release(state.breakerTicket);
      }
    }
  }

  /**
   * Forgets everything of the attempt that ended: the attempt's state serves the next one. What only a wait
   * or a deadline writes is reset only when it was written, as this runs after every attempt.
   */
  private static void clear(AttemptState state) {
    state.stage = AttemptState.BREAKER;
    state.holdsBreaker = false;
    state.holdsPermit = false;
    state.admittedAt = AttemptState.UNTIMED;
    state.inFlight = 0;
    if (state.waited) {
      state.reserved = false;
      state.permitWaitedNanos = 0;
      state.waitNanos = 0;
      state.waited = false;
    }
    if (state.refusal != null) {
      state.refusal = null;
    }
    AttemptBounds.forget(state);
  }

  /** Returns the permit; an adaptive bulkhead learns from the attempt's latency and {@code failure}. */
  private void returnPermit(AttemptState state, Throwable failure, long ended) {
    if (!state.holdsPermit) {
      return;
    }
    if (adaptiveBulkhead) {
      bulkhead.completed(ended - state.admittedAt, state.inFlight, failure);
    } else {
      bulkhead.release();
    }
  }

  /** @return the end of the attempt when something times it, else {@link AttemptState#UNTIMED} */
  private long endOf(AttemptState state, boolean metered) {
    return state.admittedAt != AttemptState.UNTIMED && (timesForBreaker || adaptiveBulkhead || metered)
        ? time.nanoTime()
        : AttemptState.UNTIMED;
  }

  /** @return how long the attempt took, or {@link AttemptState#UNTIMED} when nothing timed it */
  private static long durationOf(AttemptState state, long ended) {
    return ended == AttemptState.UNTIMED ? AttemptState.UNTIMED : ended - state.admittedAt;
  }

  private long elapsedForBreaker(AttemptState state, long ended) {
    return timesForBreaker && ended != AttemptState.UNTIMED ? ended - state.admittedAt : OutcomeClassifier.NOT_TIMED;
  }

  // ---- what the call sequence asks ----

  /** @return the call's handle on the bound metrics listener, which its sequence reports the call's end to as well */
  public BoundMetrics<CallMetrics> metrics() {
    return reports.metrics();
  }

  /** @return the name of this call's breaker (a keyed family's), or null */
  public String breakerName() {
    return breakers == null ? null : breakers.name();
  }

  /** @return the name of this call's limiter (a keyed family's), or null */
  public String limiterName() {
    return limiters == null ? null : limiters.name();
  }

  /** @return the name of this call's bulkhead, or null */
  public String bulkheadName() {
    return bulkhead == null ? null : bulkhead.name();
  }

  /** @return the name of this call's timeout, or null */
  public String timeoutName() {
    return timeout == null ? null : timeout.config().name();
  }

  /** @return whether the call's breaker is one per key */
  public boolean breakerKeyed() {
    return breakers != null && breakers.isKeyed();
  }

  /** @return whether the call's rate limiter is one per key */
  public boolean limiterKeyed() {
    return limiters != null && limiters.isKeyed();
  }
}
