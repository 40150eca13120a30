package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.CallEnd;
import dev.brace.runtime.internal.attempt.SettledValue;
import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.internal.policy.RetryPolicy;
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
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * The resolved call: one call's policies as the registry resolved them, and how to reach its
 * delegate. It holds them and decides nothing of the patterns around the attempts; each is
 * written once, its synchronous and asynchronous shapes side by side: remembered results in
 * {@link CallStaleAnswers}, the retry in {@link CallRetry}, the hedge in {@link HedgeGroup} (with
 * {@link SyncHedgeGroup} and {@link AsyncHedgeGroup}), the fallback in {@link CallFallback}, and
 * each attempt in its {@link AttemptPipeline} (breaker, limiter, bulkhead, timeout). The drivers
 * ({@link SyncDriver}, {@link AsyncDriver}, and those outside the runtime through the driver SPI it
 * implements as a {@link ResolvedCall}, each call a {@link DriverExecution}) walk those steps in
 * the one order, waiting where a step says to. A pattern the call does not use is null.
 *
 * <p>What it computes is the call's own: its keys from the call's {@link Arguments} (through the
 * site's {@link KeysOf}), its start ({@link #begin()}) and the report of its end ({@link #ended}).
 * It reaches the delegate through the site's {@link Invoker} and {@link FallbackInvoker}.
 *
 * <p>Immutable and thread-safe; a reconfiguration makes a new one rather than changing this.
 */
public final class CallPolicies implements ResolvedCall, CallEnd {
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
  /** The same for a synchronous call, whose timeout, when it interrupts, needs no frame: see {@link #callsSyncWithoutWaiting}. */
  private final boolean callsSyncWithoutWaiting;
  /** Whether a generated method may call its delegate itself: see {@link #callsDelegateDirectly}. */
  private final boolean callsDelegateDirectly;
  /**
   * What the last attempt admitted for a generated method's own call held, shared while the
   * breaker hands out the same ticket. Written without a lock: a racing call makes its own, and
   * either is right, as it is immutable.
   */
  private HeldAttempt lastHeld;

  private CallPolicies(Builder builder) {
    this.callName = builder.definition.callName();
    this.time = builder.time;
    this.events = builder.events;
    this.scheduler = builder.scheduler;
    this.retry = builder.retry;
    this.hedge = builder.hedge;
    this.hedgeWorkers = builder.hedgeWorkers;
    this.stale = builder.stale;
    // A fallback policy without a fallback method answers nothing.
    this.fallback = builder.definition.fallback() == null ? null : builder.fallback;
    this.passThrough = builder.passThrough;
    this.invoker = builder.definition.invoker();
    this.fallbackInvoker = builder.definition.fallback();
    this.keysOf = builder.definition.keys();
    this.keysFromCaller = builder.definition.keysFromCaller();
    this.method = builder.definition.method();
    this.attempts = builder.attempts == null
        ? AttemptPipeline.builder(callName, time, events).build()
        : builder.attempts;
    this.endReports = new CallEndReports(callName, time, events, attempts, fallback);
    this.slotInvoker = builder.definition.slotInvoker();
    // A stack's key from its caller is used only by a keyed breaker or limiter, which the pipeline's
    // attempt made without waiting leaves to a state, and by remembered results, excluded here.
    boolean callStepsWithoutFrame = !passThrough && stale == null && hedge == null && slotInvoker != null && keysOf == null
        && (retry == null || (!retry.retriesResults() && !retry.measuresDuration()));
    this.callsWithoutWaiting = callStepsWithoutFrame && attempts.triesWithoutWaiting(false);
    this.callsSyncWithoutWaiting = callStepsWithoutFrame && attempts.triesWithoutWaiting(true);
    // Its success is recorded without its result, which a generated method does not box; and a
    // generated method arms no timeout.
    this.callsDelegateDirectly = callsWithoutWaiting && !attempts.judgesResults();
  }

  /**
   * @param definition the call as its site declares it: its name and how to reach the delegate
   * @param time the registry's clock, which synchronous waits sleep on
   * @param events the event boundary
   * @param scheduler the registry's scheduler, created on first use
   * @return a builder of the call's policies, with no pattern yet
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
   * @return whether a synchronous call tries its first attempt without waiting, with no frame: as
   *     {@link #callsWithoutWaiting}, and also when the call's timeout interrupts the caller's thread
   */
  public boolean callsSyncWithoutWaiting() {
    return callsSyncWithoutWaiting;
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
      SettledValue settled) {
    return attempts.callWithoutWaiting(slotInvoker, method, target, a, b, c, d, x, y, started, this, settled);
  }

  /** @return the steps of each attempt: breaker, limiter, bulkhead, timeout */
  public AttemptPipeline attempts() {
    return attempts;
  }

  /** @return the registry's scheduler, on which asynchronous waits and deadlines run */
  public ScheduledExecutorService scheduler() {
    TimeoutPolicy timeout = attempts.bounds().timeout();
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

  /** @return the fallback's policy, or null when the call has no fallback method to answer with: see {@link CallFallback} */
  FallbackPolicy fallback() {
    return fallback;
  }

  /** @return how the fallback method is reached, or null when there is none */
  FallbackInvoker fallbackInvoker() {
    return fallbackInvoker;
  }

  /** @return the method's number in its wrapper, which the invokers switch on */
  int method() {
    return method;
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
   * @return the start, to pass to the retry's decisions ({@link CallRetry})
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
   * As {@link #begin()}, noting in the call's attempt's state when its retry's {@code maxDuration} ends: the
   * calls its attempts make inherit that as the deadline of the whole call.
   *
   * @param state the state the call's attempts go through the pipeline with
   * @return the start, to pass to the retry's decisions ({@link CallRetry})
   */
  public long begin(AttemptState state) {
    long started = begin();
    began(state, started);
    return started;
  }

  /** Notes in the attempt's state of a call that {@link #begin() began} without one when its {@code maxDuration} ends. */
  public void began(AttemptState state, long started) {
    state.callBegan(started, retry == null ? 0 : retry.maxDurationNanos());
  }

  /** @return the call's retry, or null when it has none: the driver's steps are {@link CallRetry}'s */
  RetryPolicy retry() {
    return retry;
  }

  /** @return the registry's clock, which synchronous waits sleep on */
  TimeSource time() {
    return time;
  }

  // ---- the hedge ----

  /** @return whether one attempt, as the retry sees it, is a hedged group of attempts */
  @Override
  public boolean hedged() {
    return hedge != null;
  }

  /** @return the call's hedge, or null when it has none: its groups of attempts are {@link HedgeGroup}'s */
  HedgePolicy hedge() {
    return hedge;
  }

  /** @return where a synchronous call's hedged attempts run */
  Executor hedgeWorkers() {
    return hedgeWorkers;
  }

  // ---- remembered results (@StaleIfError), around the attempts ----

  /** @return the call's remembered results ({@code @StaleIfError}), or null when it has none: see {@link CallStaleAnswers} */
  public StaleAnswers stale() {
    return stale;
  }

  /** @return whether the call remembers its results: its drivers take the steps of {@link CallStaleAnswers} */
  @Override
  public boolean remembersAnswers() {
    return stale != null;
  }

  // ---- at the end ----

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
   * @param last the state of the call's attempts, or null (a hedged call's attempts have states of
   *     their own, so its attempt's state is never used)
   */
  public void ended(long started, AttemptState last, Throwable failure) {
    // Kept this small so it inlines into the happy path, where it costs one comparison.
    if (started != UNTIMED && events.metricsListening()) {
      endReports.report(started, last == null || hedge != null ? AttemptState.UNTIMED : last.outcomeAt(), failure);
    }
  }

  /** As {@link #ended(long, AttemptState, Throwable)} for a metered call whose attempt made without waiting succeeded. */
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

    /** @return the call's policies */
    public CallPolicies build() {
      return new CallPolicies(this);
    }
  }
}
