package dev.brace.runtime.internal.sequence;

import dev.brace.Criticality;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Refusal;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.SyncAttempt;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.policy.AdaptiveLimit;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.StaleAnswers;
import dev.brace.runtime.internal.policy.Throttling;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.internal.attempt.KeyedFamily;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * The resolved policies of one call and the steps of its sequence, in the one order: fallback,
 * remembered results (stale-if-error), retry, hedge, circuit breaker, rate limiter, bulkhead,
 * timeout, call. Every decision a call needs is made here or in the policy a step hands it to,
 * from the config each policy was built with; the drivers ({@link SyncDriver}, {@link AsyncDriver}) only walk the steps, sleeping or scheduling
 * where a step says to wait. A pattern the call does not use is null and its step does nothing.
 *
 * <p>Steps of one attempt: {@link #admit} (breaker, limiter, bulkhead; a refusal holds nothing),
 * the call (under {@link #timed} when sync), then exactly one of {@link #attemptSucceeded} or
 * {@link #attemptFailed}, which record the outcome and release what admission took. After a
 * failure {@link #retryDelay} decides whether and when another attempt follows; at the end {@link
 * #answerable} decides whether the fallback answers.
 *
 * <p>A bulkhead admits by the call's {@link Criticality.Level}. An adaptive bulkhead times each
 * attempt: its ticket is then an {@link AdaptiveLimit.Slot} holding the breaker's ticket, and the
 * outcome steps return the permit through it, so the attempt's latency moves the limit. An
 * adaptive limiter hears every outcome: a success, or a failure that {@link Throttling} judges.
 * Neither costs anything to a call whose bulkhead and limiter are fixed. A {@link TimedTicket},
 * when a latency-judging breaker or a metrics listener needs the attempt's start, wraps the slot
 * (or the breaker's ticket) outermost.
 *
 * <p>With a hedge, what the retry sees as one attempt is a group of attempts ({@link HedgeGroup}),
 * each of which takes the steps of one attempt on its own.
 */
public final class CallSequence {
  /** A start no clock gave: neither the retry's {@code maxDuration} nor a metrics listener asked for one. */
  static final long UNTIMED = Long.MIN_VALUE;

  private final String callName;
  private final TimeSource time;
  private final EventBus events;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final RetryPolicy retry;
  private final KeyedFamily<CircuitBreakerInstance> breakers;
  private final KeyedFamily<RateLimiterInstance> limiters;
  private final SemaphoreBulkhead bulkhead;
  private final TimeoutPolicy timeout;
  private final FallbackPolicy fallback;
  private final StaleAnswers stale;
  private final boolean passThrough;
  private final Criticality.Level criticality;
  /** Whether the bulkhead adapts, so that each attempt's ticket is a timing slot. */
  private final boolean timedAttempts;
  /** The adaptive limiter's judge of failures; null when the limiter does not adapt. */
  private final Throttling throttling;
  /** A limiter reads the clock to admit, and a timeout needs the admission instant: one read for both. */
  private final boolean sharesClock;
  /** The breaker judges latency: each attempt is timed from admission to outcome. */
  private final boolean timesAttempts;
  private final HedgePolicy hedge;
  private final Executor hedgeWorkers;
  /** The steps of one attempt only (no retry, hedge or fallback), for the hedge's async attempts. */
  private final CallSequence attemptsOnly;
  /** Named in the outcomes reported to metrics, also by the attempts of a hedge. */
  private final String retryName;
  private final String hedgeName;

  /**
   * @param callName {@code Interface.method}, or a stack's name
   * @param time the registry's clock, which sync waits sleep on
   * @param events the event boundary
   * @param scheduler the registry's scheduler, created on first use
   * @param patterns the call's policies
   */
  public CallSequence(
      String callName,
      TimeSource time,
      EventBus events,
      Supplier<ScheduledExecutorService> scheduler,
      Patterns patterns) {
    this.callName = Objects.requireNonNull(callName, "callName");
    this.time = Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.retry = patterns.retry;
    this.breakers = patterns.breakers;
    this.limiters = patterns.limiters;
    this.bulkhead = patterns.bulkhead;
    this.timeout = patterns.timeout;
    this.fallback = patterns.fallback;
    this.stale = patterns.stale;
    this.passThrough = patterns.passThrough;
    this.criticality = patterns.criticality;
    this.timedAttempts = bulkhead != null && bulkhead.isAdaptive();
    this.throttling = limiters == null ? null : patterns.throttling;
    this.sharesClock = timeout != null && limiters != null;
    this.timesAttempts = patterns.breakers != null && patterns.timesAttempts;
    this.hedge = patterns.hedge;
    this.hedgeWorkers = patterns.hedgeWorkers;
    this.retryName = retry == null ? null : retry.config().name();
    this.hedgeName = hedge == null ? null : hedge.config().name();
    this.attemptsOnly = hedge == null ? this : new CallSequence(this);
  }

  /** The steps of one attempt of {@code outer}: its breaker, limiter, bulkhead and timeout. */
  private CallSequence(CallSequence outer) {
    this.callName = outer.callName;
    this.time = outer.time;
    this.events = outer.events;
    this.scheduler = outer.scheduler;
    this.retry = null;
    this.breakers = outer.breakers;
    this.limiters = outer.limiters;
    this.bulkhead = outer.bulkhead;
    this.timeout = outer.timeout;
    this.fallback = null;
    this.stale = null;
    this.passThrough = false;
    this.criticality = outer.criticality;
    this.timedAttempts = outer.timedAttempts;
    this.throttling = outer.throttling;
    this.sharesClock = outer.sharesClock;
    this.timesAttempts = outer.timesAttempts;
    this.hedge = null;
    this.hedgeWorkers = null;
    this.retryName = outer.retryName;
    this.hedgeName = outer.hedgeName;
    this.attemptsOnly = this;
  }

  /** The policies of one call, as the store resolved them; any of them may be absent. */
  public static final class Patterns {
    RetryPolicy retry;
    KeyedFamily<CircuitBreakerInstance> breakers;
    KeyedFamily<RateLimiterInstance> limiters;
    SemaphoreBulkhead bulkhead;
    TimeoutPolicy timeout;
    FallbackPolicy fallback;
    StaleAnswers stale;
    boolean passThrough;
    Criticality.Level criticality = Criticality.Level.DEFAULT;
    Throttling throttling;
    HedgePolicy hedge;
    Executor hedgeWorkers;
    boolean timesAttempts;

    /** @return the patterns of a call that Brace passes straight through (switched off) */
    public static Patterns none() {
      Patterns none = new Patterns();
      none.passThrough = true;
      return none;
    }

    /** @param retry the retry @return this */
    public Patterns retry(RetryPolicy retry) {
      this.retry = retry;
      return this;
    }

    /** @param breakers the breaker, or its keyed family @return this */
    public Patterns breakers(KeyedFamily<CircuitBreakerInstance> breakers) {
      this.breakers = breakers;
      return this;
    }

    /** @param limiters the limiter, or its keyed family @return this */
    public Patterns limiters(KeyedFamily<RateLimiterInstance> limiters) {
      this.limiters = limiters;
      return this;
    }

    /**
     * @param timesAttempts whether the breaker judges latency ({@code slowCall}), so that every
     *     attempt is timed; no attempt reads the clock for it otherwise
     * @return this
     */
    public Patterns timesAttempts(boolean timesAttempts) {
      this.timesAttempts = timesAttempts;
      return this;
    }

    /** @param bulkhead the bulkhead @return this */
    public Patterns bulkhead(SemaphoreBulkhead bulkhead) {
      this.bulkhead = bulkhead;
      return this;
    }

    /** @param timeout the timeout @return this */
    public Patterns timeout(TimeoutPolicy timeout) {
      this.timeout = timeout;
      return this;
    }

    /**
     * @param hedge the hedge
     * @param workers where its synchronous attempts run
     * @return this
     */
    public Patterns hedge(HedgePolicy hedge, Executor workers) {
      this.hedge = hedge;
      this.hedgeWorkers = workers;
      return this;
    }

    /** @param stale the call's remembered results ({@code @StaleIfError}) @return this */
    public Patterns stale(StaleAnswers stale) {
      this.stale = stale;
      return this;
    }

    /** @param fallback the fallback's policy @return this */
    public Patterns fallback(FallbackPolicy fallback) {
      this.fallback = fallback;
      return this;
    }

    /** @param criticality how much the call matters to its bulkhead @return this */
    public Patterns criticality(Criticality.Level criticality) {
      this.criticality = Objects.requireNonNull(criticality, "criticality");
      return this;
    }

    /** @param throttling the judge of an adaptive limiter, null for a fixed one @return this */
    public Patterns throttling(Throttling throttling) {
      this.throttling = throttling;
      return this;
    }
  }

  /** @return {@code Interface.method}, or the stack's name */
  public String callName() {
    return callName;
  }

  /** @return whether Brace is switched off for this call: the delegate is called as it is, keys are never computed */
  public boolean passesThrough() {
    return passThrough;
  }

  /** @return whether the call's breaker is one per key */
  public boolean breakerKeyed() {
    return breakers != null && breakers.isKeyed();
  }

  /** @return whether the call's rate limiter is one per key */
  public boolean limiterKeyed() {
    return limiters != null && limiters.isKeyed();
  }

  // ---- before the first attempt ----

  /**
   * @param source computes the call's keys from its arguments, or null when nothing is keyed
   * @return the keys
   * @throws IllegalArgumentException when a key part is null: the caller's mistake, reported at
   *     once, never retried, answered by a fallback or recorded by a breaker
   */
  CallKeys keys(Supplier<CallKeys> source) {
    return source == null ? CallKeys.NONE : source.get();
  }

  /**
   * Starts a call: deposits into the retry budget, if any, and notes the start for {@code
   * maxDuration} and, while a metrics listener is bound, for the call's duration ({@code
   * call.ended}). With neither, the clock is not read.
   *
   * @return the start, to pass to {@link #retryDelay}
   */
  public long begin() {
    if (retry != null) {
      long started = retry.begin();
      if (retry.measuresDuration()) {
        return started;
      }
    }
    return events.metricsListening() ? time.nanoTime() : UNTIMED;
  }

  // ---- one attempt ----

  /**
   * Admits one attempt: breaker, then limiter, then bulkhead. A refusal by the limiter or the
   * bulkhead releases the breaker's ticket without an outcome.
   *
   * @return the breaker's ticket (null without a breaker), to pass to the outcome
   * @throws RuntimeException the refusal ({@link dev.brace.runtime.Refusal}); nothing is held then
   */
  public Object admit(CallKeys keys) {
    Object ticket = acquireTicket(keys);
    try {
      if (sharesClock) {
        admitTimed(keys);
      } else {
        if (limiters != null) {
          limiters.forKey(keys.limiter()).acquire();
        }
        if (bulkhead != null && !bulkhead.tryAcquire(criticality)) {
          acquireBulkheadWaiting();
        }
      }
    } catch (Throwable refused) {
      releaseTicket(ticket);
      throw refused;
    }
    // An adaptive bulkhead's slot holds the breaker's ticket; the attempt's timing holds either.
    return track(bulkheadTaken(ticket));
  }

  /**
   * Carries the attempt's start with the breaker's ticket when someone needs it: a breaker that
   * judges latency, or a metrics listener (which alone pays for the clock read and the object).
   * The clock is read here, once everything that may wait (limiter, bulkhead) has admitted the
   * attempt, so only the attempt itself is timed.
   */
  private Object track(Object ticket) {
    if (timesAttempts) {
      return timed(ticket);
    }
    return events.metricsListening() ? new TimedTicket(ticket, time.nanoTime(), false) : ticket;
  }

  /**
   * Starts timing an admitted attempt for a breaker that judges latency.
   *
   * @param ticket the breaker's ticket
   * @return a ticket that carries the attempt's start
   */
  Object timed(Object ticket) {
    return new TimedTicket(ticket, time.nanoTime(), true);
  }

  /** @return whether attempts are timed: the async driver starts timing where its attempt starts */
  boolean timesAttempts() {
    return timesAttempts;
  }

  /** The bulkhead's slow path: waits up to its {@code maxWait}, and reports how long it took. */
  private void acquireBulkheadWaiting() {
    long askedAt = time.nanoTime();
    bulkhead.acquire(criticality);
    long waited = time.nanoTime() - askedAt;
    if (waited > 0) {
      bulkhead.waited(waited);
    }
  }

  private static long attemptStart(Object ticket) {
    return ticket instanceof TimedTicket ? ((TimedTicket) ticket).started() : UNTIMED;
  }

  /** @return the attempt's start for metrics, read only while a metrics listener is bound */
  long attemptStarting() {
    return events.metricsListening() ? time.nanoTime() : UNTIMED;
  }

  /**
   * Limiter and bulkhead of an attempt that a timeout bounds: a local limiter admits at an instant
   * read here, and when neither waited, the timeout's deadline counts from that same instant (a
   * few nanoseconds before the attempt starts) instead of reading the clock again.
   */
  private void admitTimed(CallKeys keys) {
    RateLimiterInstance limiter = limiters.forKey(keys.limiter());
    long now = 0;
    boolean waited;
    if (limiter instanceof TokenBucketRateLimiter) {
      now = time.nanoTime();
      waited = ((TokenBucketRateLimiter) limiter).acquireAt(now);
    } else {
      limiter.acquire();
      waited = true;
    }
    if (bulkhead != null && !bulkhead.tryAcquire(criticality)) {
      acquireBulkheadWaiting();
      waited = true;
    }
    if (!waited) {
      timeout.startsAt(now);
    }
  }

  /**
   * Runs one synchronous attempt under the timeout, if the call has one.
   *
   * @throws Throwable what the delegate threw, or {@link dev.brace.runtime.TimeoutExceededException}
   */
  public <T> T timed(SyncAttempt<T> attempt) throws Throwable {
    return timeout == null ? attempt.call() : timeout.call(attempt);
  }

  /**
   * Records a successful attempt and releases the bulkhead permit. The breaker's result predicate,
   * if its config has one, may count the result as a failure.
   *
   * @param ticket from {@link #admit}
   * @param result the attempt's result
   * @throws RuntimeException what the breaker's result predicate threw; the attempt has then failed
   */
  public void attemptSucceeded(Object ticket, Object result) {
    attemptSucceeded(ticket, result, attemptStart(ticket));
  }

  /** As {@link #attemptSucceeded(Object, Object)}, with the attempt's start from {@link #attemptStarting}. */
  void attemptSucceeded(Object ticket, Object result, long attemptStarted) {
    TimedTicket timing = ticket instanceof TimedTicket ? (TimedTicket) ticket : null;
    Object held = timing == null ? ticket : timing.ticket;
    Object breakerTicket = breakerTicket(held);
    try {
      if (breakerTicket != null) {
        if (timing != null && timing.judged) {
          CircuitBreakerInstance.ownerOf(breakerTicket).onResult(breakerTicket, result, timing.elapsed(time));
        } else {
          CircuitBreakerInstance.ownerOf(breakerTicket).onResult(breakerTicket, result);
        }
      }
    } finally {
      releaseBulkhead(held, null);
    }
    if (throttling != null) {
      limiters.forKey(null).succeeded();
    }
    if (events.metricsListening()) {
      reportOutcome(EventKind.CALL_SUCCEEDED, null, attemptStarted);
    }
  }

  /**
   * Records a failed attempt (the breaker judges whether it counts) and releases the bulkhead
   * permit. A caller interrupted while waiting for an abandoning attempt is not an outcome of
   * the dependency: the ticket is released without one.
   *
   * @param ticket from {@link #admit}
   * @param failure what the attempt threw
   */
  public void attemptFailed(Object ticket, Throwable failure) {
    attemptFailed(ticket, failure, attemptStart(ticket));
  }

  /** As {@link #attemptFailed(Object, Throwable)}, with the attempt's start from {@link #attemptStarting}. */
  void attemptFailed(Object ticket, Throwable failure, long attemptStarted) {
    TimedTicket timing = ticket instanceof TimedTicket ? (TimedTicket) ticket : null;
    Object held = timing == null ? ticket : timing.ticket;
    Object breakerTicket = breakerTicket(held);
    try {
      if (breakerTicket != null) {
        if (TimeoutPolicy.interruptedCaller(failure)) {
          releaseTicket(breakerTicket);
        } else if (timing != null && timing.judged) {
          CircuitBreakerInstance.ownerOf(breakerTicket).onFailure(breakerTicket, failure, timing.elapsed(time));
        } else {
          CircuitBreakerInstance.ownerOf(breakerTicket).onFailure(breakerTicket, failure);
        }
      }
    } finally {
      releaseBulkhead(held, failure);
    }
    if (throttling != null) {
      long blockNanos = throttling.judge(failure);
      if (blockNanos != Throttling.NOT_THROTTLED) {
        limiters.forKey(null).throttled(blockNanos);
      }
    }
    if (events.metricsListening()) {
      reportOutcome(EventKind.CALL_FAILED, ExceptionFilter.unwrap(failure), attemptStarted);
    }
  }

  /**
   * Ends an attempt that another attempt of its hedge made unnecessary: it was stopped, so what it
   * ended with is not an outcome of the dependency. The breaker's ticket and the bulkhead permit
   * are released without one.
   *
   * @param ticket from {@link #admit}
   */
  void attemptStopped(Object ticket) {
    abandon(ticket, bulkhead != null);
  }

  /** @return the breaker's ticket (null without a breaker) inside what admission handed out, less its timing */
  private Object breakerTicket(Object held) {
    return timedAttempts ? ((AdaptiveLimit.Slot) held).ticket() : held;
  }

  /**
   * The breaker's part of admission.
   *
   * @return the ticket, or null when the call has no breaker
   * @throws dev.brace.runtime.CircuitOpenException the refusal
   */
  Object acquireTicket(CallKeys keys) {
    return breakers == null ? null : breakers.forKey(keys.breaker()).acquire();
  }

  /** Frees a breaker ticket without an outcome. */
  void releaseTicket(Object ticket) {
    Object untimed = ticket instanceof TimedTicket ? ((TimedTicket) ticket).ticket : ticket;
    if (untimed != null) {
      CircuitBreakerInstance.ownerOf(untimed).release(untimed);
    }
  }

  /** Returns the attempt's permit; an adaptive bulkhead learns from {@code failure} (null: it returned). */
  private void releaseBulkhead(Object ticket, Throwable failure) {
    if (bulkhead == null) {
      return;
    }
    if (timedAttempts) {
      bulkhead.completed((AdaptiveLimit.Slot) ticket, failure);
    } else {
      bulkhead.release();
    }
  }

  /**
   * Tells metrics listeners which instances an attempt that ran went through and how it ended.
   * Listener-only: a line per attempt is not worth logging, and with no listener it is never built.
   */
  private void reportOutcome(EventKind kind, Throwable failure, long attemptStarted) {
    events.emit(kind, callName,
        "duration_ns", attemptStarted == UNTIMED ? null : time.nanoTime() - attemptStarted,
        "circuitbreaker", breakers == null ? null : breakers.name(),
        "ratelimit", limiters == null ? null : limiters.name(),
        "bulkhead", bulkhead == null ? null : bulkhead.name(),
        "timeout", timeout == null ? null : timeout.config().name(),
        "retry", retryName,
        "hedge", hedgeName,
        "exception", failure == null ? null : failure.getClass().getName(),
        "message", failure == null ? null : failure.getMessage());
  }

  /**
   * Tells metrics listeners how the call ended and how long that took ({@code call.ended}): called
   * once per call, when its result or the failure that ends it is known, before a fallback runs.
   * Nothing happens without a metrics listener, nor for a call that began before one was bound.
   *
   * @param started from {@link #begin}
   * @param failure what ends the call, or null when it returns a result
   */
  void ended(long started, Throwable failure) {
    // Kept this small so it inlines into the happy path, where it costs one comparison.
    if (started != UNTIMED && events.metricsListening()) {
      reportEnd(started, failure);
    }
  }

  private void reportEnd(long started, Throwable failure) {
    long duration = time.nanoTime() - started;
    String outcome = "success";
    String byKind = null;
    String by = null;
    if (failure != null) {
      Throwable cause = ExceptionFilter.unwrap(failure);
      outcome = "failure";
      if (fallback != null && !TimeoutPolicy.interruptedCaller(failure) && fallback.answerable(failure) != null) {
        outcome = "fallback";
        byKind = Kind.FALLBACK.key();
        by = fallback.config().name();
      } else if (cause instanceof Refusal && refusedHere((Refusal) cause) != null) {
        outcome = "rejected";
        byKind = refusedHere((Refusal) cause).key();
        by = ((Refusal) cause).instance();
      } else if (cause instanceof TimeoutExceededException && timeout != null
          && timeout.config().name().equals(((TimeoutExceededException) cause).instance())) {
        outcome = "timeout";
        byKind = Kind.TIMEOUT.key();
        by = timeout.config().name();
      }
    }
    events.emit(EventKind.CALL_ENDED, callName, "outcome", outcome, "duration_ns", duration,
        "by_kind", byKind, "by", by);
  }

  /** @return the kind of this call's own instance that refused, or null when the refusal came from further down */
  private Kind refusedHere(Refusal refusal) {
    String instance = refusal.instance();
    if (refusal instanceof CircuitOpenException && breakers != null && inFamily(instance, breakers.name())) {
      return Kind.CIRCUITBREAKER;
    }
    if (refusal instanceof RateLimitedException && limiters != null && inFamily(instance, limiters.name())) {
      return Kind.RATELIMIT;
    }
    if (refusal instanceof BulkheadFullException && bulkhead != null && bulkhead.name().equals(instance)) {
      return Kind.BULKHEAD;
    }
    return null;
  }

  /** {@code tenant[acme]} and {@code tenant} are of the family {@code tenant}. */
  private static boolean inFamily(String instance, String family) {
    return instance != null && instance.startsWith(family)
        && (instance.length() == family.length() || instance.charAt(family.length()) == '[');
  }

  // ---- between attempts ----

  /** @return whether a result is retried ({@code @Retry(onResult)}); false without a retry or a predicate */
  boolean retriesResult(Object result) {
    return retry != null && retry.retriesResult(result);
  }

  /**
   * @param run the call's retry state so far, or null before the first retried outcome
   * @return the state to carry to the next decision; null when the call has no retry
   */
  RetryRun retryRun(RetryRun run) {
    return retry == null ? null : retry.continuing(run);
  }

  /**
   * Decides what follows a failed attempt.
   *
   * @param run from {@link #retryRun}
   * @param attempt the attempt that failed, from 1
   * @param started from {@link #begin}
   * @param failure what it threw (a refusal included)
   * @return the nanoseconds to wait before the next attempt, or {@link RetryPolicy#STOP}: the call
   *     ends with {@code failure}, earlier failures attached to it
   */
  long retryDelay(RetryRun run, int attempt, long started, Throwable failure) {
    if (retry == null || TimeoutPolicy.interruptedCaller(failure)) {
      return RetryPolicy.STOP;
    }
    return retry.decide(run, attempt, started, failure);
  }

  /**
   * Decides what follows a result that {@link #retriesResult} asks to retry.
   *
   * @return the nanoseconds to wait, or {@link RetryPolicy#STOP}: the result is returned
   */
  long retryDelayForResult(RetryRun run, int attempt, long started) {
    return retry.decideOnResult(run, attempt, started);
  }

  /**
   * The call ends in the middle of a wait (the caller was interrupted while sleeping a backoff):
   * the failure it ends with carries the earlier ones.
   */
  void stoppedWaiting(RetryRun run, Throwable failure) {
    if (run != null) {
      run.attachEarlierFailuresTo(failure);
    }
  }

  /**
   * Sleeps a wait a step asked for, on the registry's clock.
   *
   * @return false when the caller was interrupted; its interrupt flag is set again
   */
  boolean sleep(long nanos) {
    try {
      time.sleep(Duration.ofNanos(nanos));
      return true;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  // ---- remembered results (@StaleIfError), around the attempts ----

  /** @return the call's remembered results ({@code @StaleIfError}), or null when it has none */
  public StaleAnswers staleAnswers() {
    return stale;
  }

  /** @return whether the call remembers its results: its drivers take the stale steps below */
  public boolean remembersAnswers() {
    return stale != null;
  }

  /** @return the key the call's results are remembered under */
  Object staleKey(CallKeys keys) {
    return StaleAnswers.keyOf(keys.stale());
  }

  /** @return a remembered result young enough to answer without a call, or {@link StaleAnswers#NONE} */
  Object freshAnswer(Object key) {
    return stale.fresh(key);
  }

  /** @return whether only one call per key reaches the dependency at a time */
  boolean singleFlight() {
    return stale.singleFlight();
  }

  /** @return the flight this call now leads, or null when another call leads one */
  StaleAnswers.Flight lead(Object key) {
    return stale.lead(key);
  }

  /** @return the outcome of the call that leads the key's flight, or null when it has ended */
  CompletableFuture<Object> following(Object key) {
    return stale.following(key);
  }

  /** Waits on this thread for the leader's outcome; see {@link StaleAnswers#await}. */
  Object awaitLeader(CompletableFuture<Object> outcome) throws Throwable {
    return stale.await(outcome);
  }

  /** The call returned: its result is remembered and shared with the flight's followers. */
  void succeeded(Object key, Object result, StaleAnswers.Flight flight) {
    stale.remember(key, result, flight);
  }

  /**
   * The call failed after every retry (or was refused): the failure goes to the flight's
   * followers, and a remembered result may answer it.
   *
   * @return the remembered result, or {@link StaleAnswers#NONE}: the failure goes on to the fallback
   */
  Object staleAnswer(Object key, Throwable failure, StaleAnswers.Flight flight) {
    return stale.answer(key, failure, flight, callerInterrupted(failure));
  }

  /** The caller gave up: the flight it led ends without an outcome. */
  void abandon(StaleAnswers.Flight flight) {
    stale.abandon(flight);
  }

  /** An interrupt of the caller while it waited is its own doing: never answered, never shared. */
  private static boolean callerInterrupted(Throwable failure) {
    return TimeoutPolicy.interruptedCaller(failure) || StaleAnswers.interruptedFollower(failure);
  }

  // ---- at the end ----

  /**
   * @param failure what ended the call
   * @return the exception the fallback answers (the one that matched its {@code on}, looked
   *     through async wrappers), reported as {@code fallback.used}; null when there is no fallback,
   *     it does not answer this failure, or the caller was interrupted
   */
  public Throwable answerable(Throwable failure) {
    if (fallback == null || callerInterrupted(failure)) {
      return null;
    }
    Throwable cause = fallback.answerable(failure);
    if (cause != null) {
      fallback.used(cause);
    }
    return cause;
  }

  /** @return {@code fallbackFailure}, with {@code original} attached as suppressed */
  public static Throwable withOriginal(Throwable fallbackFailure, Throwable original) {
    if (fallbackFailure != original) {
      fallbackFailure.addSuppressed(original);
    }
    return fallbackFailure;
  }

  // ---- the hedge ----

  /** @return whether one attempt, as the retry sees it, is a hedged group of attempts */
  public boolean hedged() {
    return hedge != null;
  }

  HedgePolicy hedgePolicy() {
    return hedge;
  }

  Executor hedgeWorkers() {
    return hedgeWorkers;
  }

  CallSequence attemptsOnly() {
    return attemptsOnly;
  }

  // ---- for the async driver ----

  ScheduledExecutorService scheduler() {
    return timeout != null ? timeout.scheduler() : scheduler.get();
  }

  TimeoutPolicy timeoutPolicy() {
    return timeout;
  }

  /** @return the registry's clock, read now */
  long now() {
    return time.nanoTime();
  }

  RateLimiterInstance limiter(CallKeys keys) {
    return limiters == null ? null : limiters.forKey(keys.limiter());
  }

  SemaphoreBulkhead bulkhead() {
    return bulkhead;
  }

  /** @return whether the bulkhead admits the call now; never waits (the async driver polls) */
  boolean tryTakeBulkhead() {
    return bulkhead.tryAcquire(criticality);
  }

  /** @return the refusal of a caller that polled the bulkhead for {@code maxWait} in vain */
  RuntimeException bulkheadFull() {
    return bulkhead.full(criticality);
  }

  /**
   * @param ticket the attempt's breaker ticket, or null
   * @return the ticket the attempt carries once it holds a bulkhead permit (a timing slot for an
   *     adaptive bulkhead)
   */
  Object bulkheadTaken(Object ticket) {
    return timedAttempts ? bulkhead.timed(ticket) : ticket;
  }

  /**
   * Ends an attempt without an outcome (the caller gave up): its permit, if it holds one, and its
   * breaker ticket are released; an adaptive bulkhead learns nothing from it.
   *
   * @param ticket what the attempt carries, or null
   * @param holdsBulkhead whether it holds a bulkhead permit
   */
  void abandon(Object ticket, boolean holdsBulkhead) {
    Object held = ticket instanceof TimedTicket ? ((TimedTicket) ticket).ticket : ticket;
    Object breakerTicket = held;
    try {
      if (holdsBulkhead) {
        if (timedAttempts) {
          breakerTicket = ((AdaptiveLimit.Slot) held).ticket();
          bulkhead.abandoned((AdaptiveLimit.Slot) held);
        } else {
          bulkhead.release();
        }
      }
    } finally {
      releaseTicket(breakerTicket);
    }
  }
}
