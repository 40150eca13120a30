package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptTicket;
import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.policy.StaleAnswers;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.metrics.CallMetrics;
import dev.brace.runtime.spi.driver.CallExecution;
import dev.brace.runtime.spi.driver.CapturedContext;
import dev.brace.runtime.spi.driver.ResolvedCall;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.FallbackInvoker;
import dev.brace.runtime.support.Invoker;
import dev.brace.runtime.support.KeysOf;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.StageAdapter;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * One call's resolved policies around its attempts, and the steps of the call in the one order:
 * fallback, remembered results (stale-if-error), retry, hedge, then each attempt through its
 * {@link AttemptPipeline} (breaker, limiter, bulkhead, timeout). Every decision the call needs is
 * made here or in the policy a step hands it to; the drivers ({@link SyncDriver}, {@link
 * AsyncDriver}, and those outside the runtime through the driver SPI it implements as a {@link
 * ResolvedCall}, each call a {@link DriverExecution}) only walk the steps, waiting where a step
 * says to. A pattern the
 * call does not use is null and its step does nothing.
 *
 * <p>It also knows how to reach the delegate: the site's {@link Invoker}, {@link FallbackInvoker}
 * and {@link KeysOf}, which take a call's {@link Arguments}.
 *
 * <p>Immutable and thread-safe; a reconfiguration makes a new one rather than changing this.
 */
public final class CallSequence implements ResolvedCall, AttemptPipeline.CallEnd {
  /** A start no clock gave: neither the retry's {@code maxDuration} nor a metrics listener asked for one. */
  public static final long UNTIMED = Long.MIN_VALUE;

  private final String callName;
  private final TimeSource time;
  private final EventBus events;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final AttemptPipeline attempts;
  private final RetryPolicy retry;
  private final HedgePolicy hedge;
  private final Executor hedgeWorkers;
  private final StaleAnswers stale;
  private final FallbackPolicy fallback;
  private final boolean passThrough;
  private final Invoker invoker;
  private final FallbackInvoker fallbackInvoker;
  private final KeysOf keysOf;
  private final boolean keysFromCaller;
  /** How the call's end is reported: to the bound metrics listener and as {@code call.ended}. */
  private final CallEndReports endReports;
  /** The method's number in its wrapper, which the invokers switch on. */
  private final int method;
  private final SlotInvoker slotInvoker;
  /** Whether a call may make its first attempt without waiting, with no frame: see {@link #callsWithoutWaiting}. */
  private final boolean callsWithoutWaiting;
  /** Whether a generated method may call its delegate itself: see {@link #callsDelegateDirectly}. */
  private final boolean callsDelegateDirectly;
  /**
   * What the last attempt admitted for a generated method's own call held, shared while the
   * breaker hands out the same ticket. Written without a lock: a racing call makes its own, and
   * either is right, as it is immutable.
   */
  private HeldAttempt lastHeld;

  private CallSequence(Builder builder) {
    this.callName = builder.definition.callName();
    this.time = builder.time;
    this.events = builder.events;
    this.scheduler = builder.scheduler;
    this.retry = builder.retry;
    this.hedge = builder.hedge;
    this.hedgeWorkers = builder.hedgeWorkers;
    this.stale = builder.stale;
    this.fallback = builder.fallback;
    this.passThrough = builder.passThrough;
    this.invoker = builder.definition.invoker();
    this.fallbackInvoker = builder.definition.fallback();
    this.keysOf = builder.definition.keys();
    this.keysFromCaller = builder.definition.keysFromCaller();
    this.method = builder.definition.method();
    this.attempts = builder.attempts == null
        ? AttemptPipeline.builder(callName, time, events).build()
        : builder.attempts;
    this.endReports = new CallEndReports(callName, time, events, attempts, fallbackInvoker == null ? null : fallback);
    this.slotInvoker = builder.definition.slotInvoker();
    // A stack's key from its caller is used only by a keyed breaker or limiter, which the pipeline's
    // attempt made without waiting leaves to a ticket, and by remembered results, excluded here.
    boolean callStepsWithoutFrame = !passThrough && stale == null && hedge == null && slotInvoker != null && keysOf == null
        && (retry == null || (!retry.retriesResults() && !retry.measuresDuration()));
    this.callsWithoutWaiting = callStepsWithoutFrame && attempts.triesWithoutWaiting();
    // Its success is recorded without its result, which a generated method does not box.
    this.callsDelegateDirectly = callsWithoutWaiting && !attempts.judgesResults();
  }

  /**
   * @param definition the call as its site declares it: its name and how to reach the delegate
   * @param time the registry's clock, which synchronous waits sleep on
   * @param events the event boundary
   * @param scheduler the registry's scheduler, created on first use
   * @return a builder of the call's sequence, with no pattern yet
   */
  public static Builder builder(
      CallDefinition definition, TimeSource time, EventBus events, Supplier<ScheduledExecutorService> scheduler) {
    return new Builder(definition, time, events, scheduler);
  }

  @Override
  public CallExecution begin(Arguments arguments) {
    return new DriverExecution(this, arguments);
  }

  @Override
  public <T> CompletableFuture<T> callAsync(
      StageAdapter adapter, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    return AsyncDriver.call(this, Objects.requireNonNull(adapter, "adapter"), target, a, b, c, d, x, y);
  }

  @Override
  public CapturedContext captureContext() {
    // The context itself: nothing is allocated for a caller with nothing to carry.
    return CallContext.capture();
  }

  /** @return {@code Interface.method}, or the stack's name */
  @Override
  public String callName() {
    return callName;
  }

  /** @return whether Brace is switched off for this call: the delegate is called as it is, keys are never computed */
  @Override
  public boolean passesThrough() {
    return passThrough;
  }

  /**
   * @return whether a call tries its first attempt without waiting, with no frame ({@link
   *     #attemptWithoutWaiting}): it has no keys, remembered results, hedge, result predicate or
   *     {@code maxDuration}, and its pipeline {@linkplain AttemptPipeline#triesWithoutWaiting tries}
   */
  public boolean callsWithoutWaiting() {
    return callsWithoutWaiting;
  }

  /**
   * The first attempt made without waiting, straight from the call's parameters; on success the call ends
   * here ({@link #succeededAt}).
   *
   * @param started from {@link #begin()}
   * @return as {@link AttemptPipeline#callWithoutWaiting}
   */
  public Object attemptWithoutWaiting(Object target, Object a, Object b, Object c, Object d, long x, long y, long started) {
    return attempts.callWithoutWaiting(slotInvoker, method, target, a, b, c, d, x, y, started, this, null);
  }

  /**
   * @return whether a generated method may call its delegate itself, after admitting the attempt
   *     without waiting: the call {@linkplain #callsWithoutWaiting tries that} and no result
   *     predicate (the retry's or the breaker's) needs the result
   */
  boolean callsDelegateDirectly() {
    return callsDelegateDirectly;
  }

  /** @return what an attempt admitted with {@code taken} holds, shared while {@code taken} is the same */
  HeldAttempt heldFor(Object taken) {
    HeldAttempt held = lastHeld;
    if (held == null || held.taken != taken) {
      held = new HeldAttempt(this, taken, null);
      lastHeld = held;
    }
    return held;
  }

  /**
   * As {@link #begin()}, for a call whose start was read already, at its admission without waiting.
   *
   * @param instant the call's start, or {@link #UNTIMED}
   * @return {@code instant}
   */
  long begin(long instant) {
    if (retry != null) {
      retry.begin();
    }
    return instant;
  }

  /** As {@link #attemptWithoutWaiting}, for an asynchronous call: {@code settled} reads the stage its delegate returns. */
  Object attemptWithoutWaiting(Object target, Object a, Object b, Object c, Object d, long x, long y, long started,
      AttemptPipeline.Settled settled) {
    return attempts.callWithoutWaiting(slotInvoker, method, target, a, b, c, d, x, y, started, this, settled);
  }

  /** @return the steps of each attempt: breaker, limiter, bulkhead, timeout */
  public AttemptPipeline attempts() {
    return attempts;
  }

  /** @return the registry's scheduler, on which asynchronous waits and deadlines run */
  public ScheduledExecutorService scheduler() {
    TimeoutPolicy timeout = attempts.timeout();
    return timeout != null ? timeout.scheduler() : scheduler.get();
  }

  // ---- reaching the delegate ----

  /**
   * Calls the delegate's method once.
   *
   * @throws Throwable what it threw, unchanged
   */
  @Override
  public Object invoke(Object target, Arguments args) throws Throwable {
    return invoker.invoke(method, target, args);
  }

  /** @return whether the call has a fallback method to answer with */
  public boolean hasFallback() {
    return fallbackInvoker != null && fallback != null;
  }

  /**
   * Calls the fallback method.
   *
   * @param failure what {@link #answerable} returned
   * @throws Throwable what the fallback threw
   */
  public Object fallback(Object target, Arguments args, Throwable failure) throws Throwable {
    return fallbackInvoker.answer(method, target, args, failure);
  }

  /**
   * @param args the call's arguments (a stack's key is its first slot)
   * @return the call's keys
   * @throws IllegalArgumentException when a key part is null, or a stack whose breaker or limiter is
   *     keyed was called without a key: the caller's mistake, reported at once, never retried,
   *     answered by a fallback or recorded by a breaker
   */
  public CallKeys keys(Arguments args) {
    if (keysFromCaller) {
      return keysFromCaller((String) args.a());
    }
    return keysOf == null ? CallKeys.NONE : keysOf.keys(method, args);
  }

  /**
   * A stack takes its key from each call: configuration may make its breaker or limiter keyed, and
   * remembered results are kept under the key (without one, a stack remembers one result).
   */
  private CallKeys keysFromCaller(String key) {
    boolean breakerKeyed = attempts.breakerKeyed();
    boolean limiterKeyed = attempts.limiterKeyed();
    if (key == null && (breakerKeyed || limiterKeyed)) {
      throw new IllegalArgumentException(Message.STACK_KEY_MISSING.format(callName));
    }
    if (!breakerKeyed && !limiterKeyed && stale == null) {
      return CallKeys.NONE;
    }
    return CallKeys.of(breakerKeyed ? key : null, limiterKeyed ? key : null, key);
  }

  // ---- before the first attempt ----

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

  /**
   * As {@link #begin()}, noting in the call's ticket when its retry's {@code maxDuration} ends: the
   * calls its attempts make inherit that as the deadline of the whole call.
   *
   * @param ticket the ticket the call's attempts go through the pipeline with
   * @return the start, to pass to {@link #retryDelay}
   */
  public long begin(AttemptTicket ticket) {
    long started = begin();
    began(ticket, started);
    return started;
  }

  /** Notes in the ticket of a call that {@link #begin() began} without one when its {@code maxDuration} ends. */
  public void began(AttemptTicket ticket, long started) {
    ticket.callBegan(started, retry == null ? 0 : retry.maxDurationNanos());
  }

  // ---- between attempts ----

  /** @return whether a result is retried ({@code @Retry(onResult)}); false without a retry or a predicate */
  public boolean retriesResult(Object result) {
    return retry != null && retry.retriesResult(result);
  }

  /**
   * @param run the call's retry state so far, or null before the first retried outcome
   * @return the state to carry to the next decision; null when the call has no retry
   */
  public RetryRun retryRun(RetryRun run) {
    return retry == null ? null : retry.continuing(run);
  }

  /**
   * Decides what follows a failed attempt.
   *
   * @param run from {@link #retryRun}
   * @param attempt the attempt that failed, from 1
   * @param started from {@link #begin}
   * @param failure what it threw (a refusal included)
   * @return the nanoseconds to wait before the next attempt (the failure is then remembered in
   *     {@code run}, to be attached to the one that ends the call), or {@link RetryPolicy#STOP}: the
   *     call ends with {@code failure}, earlier failures attached to it
   */
  public long retryDelay(RetryRun run, int attempt, long started, Throwable failure) {
    if (retry == null || TimeoutPolicy.interruptedCaller(failure)) {
      return RetryPolicy.STOP;
    }
    long delay = retry.decide(run, attempt, started, failure);
    if (delay != RetryPolicy.STOP) {
      run.recordFailure(failure);
    }
    return delay;
  }

  /**
   * Decides what follows a result that {@link #retriesResult} asks to retry.
   *
   * @return the nanoseconds to wait, or {@link RetryPolicy#STOP}: the result is returned
   */
  public long retryDelayForResult(RetryRun run, int attempt, long started) {
    return retry.decideOnResult(run, attempt, started);
  }

  /**
   * The call ends in the middle of a wait (the caller was interrupted while sleeping a backoff):
   * the failure it ends with carries the earlier ones.
   */
  public void stoppedWaiting(RetryRun run, Throwable failure) {
    if (run != null) {
      run.attachEarlierFailuresTo(failure);
    }
  }

  /**
   * Sleeps a wait a step asked for, on the registry's clock.
   *
   * @return false when the caller was interrupted; its interrupt flag is set again
   */
  public boolean sleep(long nanos) {
    try {
      time.sleep(Duration.ofNanos(nanos));
      return true;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  // ---- the hedge ----

  /** @return whether one attempt, as the retry sees it, is a hedged group of attempts */
  @Override
  public boolean hedged() {
    return hedge != null;
  }

  HedgePolicy hedgePolicy() {
    return hedge;
  }

  Executor hedgeWorkers() {
    return hedgeWorkers;
  }

  // ---- remembered results (@StaleIfError), around the attempts ----

  /** @return the call's remembered results ({@code @StaleIfError}), or null when it has none */
  public StaleAnswers staleAnswers() {
    return stale;
  }

  /** @return whether the call remembers its results: its drivers take the stale steps below */
  @Override
  public boolean remembersAnswers() {
    return stale != null;
  }

  /** @return the key the call's results are remembered under */
  public Object staleKey(CallKeys keys) {
    return StaleAnswers.keyOf(keys.stale());
  }

  /** @return a remembered result young enough to answer without a call, or {@link StaleAnswers#NONE} */
  public Object freshAnswer(Object key) {
    return stale.fresh(key);
  }

  /** @return whether only one call per key reaches the dependency at a time */
  public boolean singleFlight() {
    return stale.singleFlight();
  }

  /** @return the flight this call now leads, or null when another call leads one */
  public StaleAnswers.Flight lead(Object key) {
    return stale.lead(key);
  }

  /** @return the outcome of the call that leads the key's flight, or null when it has ended */
  public CompletableFuture<Object> following(Object key) {
    return stale.following(key);
  }

  /** Waits on this thread for the leader's outcome; see {@link StaleAnswers#await}. */
  public Object awaitLeader(CompletableFuture<Object> outcome) throws Throwable {
    return stale.await(outcome);
  }

  /** The call returned: its result is remembered and shared with the flight's followers. */
  public void succeeded(Object key, Object result, StaleAnswers.Flight flight) {
    stale.remember(key, result, flight);
  }

  /**
   * The call failed after every retry (or was refused): the failure goes to the flight's
   * followers, and a remembered result may answer it.
   *
   * @return the remembered result, or {@link StaleAnswers#NONE}: the failure goes on to the fallback
   */
  public Object staleAnswer(Object key, Throwable failure, StaleAnswers.Flight flight) {
    return stale.answer(key, failure, flight, callerInterrupted(failure));
  }

  /** The caller gave up: the flight it led ends without an outcome. */
  public void abandon(StaleAnswers.Flight flight) {
    stale.abandon(flight);
  }

  /** An interrupt of the caller while it waited is its own doing: never answered, never shared. */
  private static boolean callerInterrupted(Throwable failure) {
    return TimeoutPolicy.interruptedCaller(failure) || StaleAnswers.interruptedFollower(failure);
  }

  // ---- at the end ----

  /**
   * @param failure what ended the call
   * @return the exception the fallback method receives (the failure, or the cause that matched its
   *     {@code on} when only that fits the method's parameter), reported as {@code fallback.used};
   *     null when there is no fallback, it does not answer this failure, or the caller was interrupted
   */
  public Throwable answerable(Throwable failure) {
    if (!hasFallback() || callerInterrupted(failure)) {
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

  /**
   * Tells metrics listeners how the call ended and how long that took ({@code call.ended}): called
   * once per call, when its result or the failure that ends it is known, before a fallback runs.
   * Nothing happens without a metrics listener, nor for a call that began before one was bound.
   *
   * @param started from {@link #begin}
   * @param failure what ends the call, or null when it returns a result
   */
  public void ended(long started, Throwable failure) {
    ended(started, null, failure);
  }

  /**
   * As {@link #ended(long, Throwable)}, for a call that ends with the outcome of the attempt {@code
   * last} just went through the pipeline with: the call ends at the instant that outcome was
   * recorded, so the clock is not read again.
   *
   * @param last the ticket of the call's attempts, or null (a hedged call's attempts have tickets of
   *     their own, so its ticket is never used)
   */
  public void ended(long started, AttemptTicket last, Throwable failure) {
    // Kept this small so it inlines into the happy path, where it costs one comparison.
    if (started != UNTIMED && events.metricsListening()) {
      endReports.report(started, last == null || hedge != null ? AttemptTicket.UNTIMED : last.outcomeAt(), failure);
    }
  }

  /** As {@link #ended(long, AttemptTicket, Throwable)} for a metered call whose attempt made without waiting succeeded. */
  @Override
  public void succeededAt(long started, CallMetrics metrics, long attemptNanos, long outcomeAt) {
    endReports.succeededWithoutWaiting(started, metrics, attemptNanos, outcomeAt);
  }

  /** The policies of one call, as the registry resolves them; any of them may be absent. */
  public static final class Builder {
    private final CallDefinition definition;
    private final TimeSource time;
    private final EventBus events;
    private final Supplier<ScheduledExecutorService> scheduler;
    private AttemptPipeline attempts;
    private RetryPolicy retry;
    private HedgePolicy hedge;
    private Executor hedgeWorkers;
    private StaleAnswers stale;
    private FallbackPolicy fallback;
    private boolean passThrough;

    private Builder(
        CallDefinition definition, TimeSource time, EventBus events, Supplier<ScheduledExecutorService> scheduler) {
      this.definition = Objects.requireNonNull(definition, "definition");
      this.time = Objects.requireNonNull(time, "time");
      this.events = Objects.requireNonNull(events, "events");
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    /** Brace is switched off for the call: it passes straight through. @return this */
    public Builder passThrough() {
      this.passThrough = true;
      return this;
    }

    /** @param attempts the steps of each attempt @return this */
    public Builder attempts(AttemptPipeline attempts) {
      this.attempts = attempts;
      return this;
    }

    /** @param retry the retry @return this */
    public Builder retry(RetryPolicy retry) {
      this.retry = retry;
      return this;
    }

    /**
     * @param hedge the hedge
     * @param workers where its synchronous attempts run
     * @return this
     */
    public Builder hedge(HedgePolicy hedge, Executor workers) {
      this.hedge = hedge;
      this.hedgeWorkers = workers;
      return this;
    }

    /** @param stale the call's remembered results ({@code @StaleIfError}) @return this */
    public Builder stale(StaleAnswers stale) {
      this.stale = stale;
      return this;
    }

    /** @param fallback the fallback's policy @return this */
    public Builder fallback(FallbackPolicy fallback) {
      this.fallback = fallback;
      return this;
    }

    /** @return the call's sequence */
    public CallSequence build() {
      return new CallSequence(this);
    }
  }
}
