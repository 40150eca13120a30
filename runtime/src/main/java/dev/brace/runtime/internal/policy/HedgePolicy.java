package dev.brace.runtime.internal.policy;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import java.util.Objects;

/**
 * The one place a hedge decides: how long to wait before the next attempt, whether a failed
 * attempt starts the next one at once or decides the call, and whether the budget allows another
 * hedge. Stateless apart from the shared budget; a group's own state (what is running, what
 * failed) lives with the driver's bookkeeping, which asks here at each step.
 */
public final class HedgePolicy {
  private final HedgeConfig config;
  /** The call this hedge belongs to, for events; its name may differ when configured apart. */
  private final String callName;
  private final EventBus events;
  /** Hedges sent, refused and won, for a bound metrics listener. */
  private final BoundMetrics<InstanceMetrics> metrics;
  private final RetryBudget budget;
  private final boolean depositsPerGroup;
  private final ExceptionFilter filter;
  private final long delayNanos;

  /**
   * @param config the settings
   * @param callName the call, for events
   * @param events the event boundary
   * @param budget the retry budget hedges withdraw from, or null
   * @param depositsPerGroup whether each group deposits into the budget: false when the call's
   *     retry deposits into the same budget, so that a call counts once however it is retried
   */
  public HedgePolicy(HedgeConfig config, String callName, EventBus events, RetryBudget budget, boolean depositsPerGroup) {
    this.config = Objects.requireNonNull(config, "config");
    this.callName = Objects.requireNonNull(callName, "callName");
    this.events = Objects.requireNonNull(events, "events");
    this.metrics = BoundMetrics.ofInstance(events, Kind.HEDGE, config.name());
    this.budget = budget;
    this.depositsPerGroup = budget != null && depositsPerGroup;
    this.filter = new ExceptionFilter(config.on(), config.ignore());
    this.delayNanos = RetryPolicy.saturatedNanos(config.delay());
  }

  /** @return the settings */
  public HedgeConfig config() {
    return config;
  }

  /** @return the wait, after the latest attempt started, before the next one starts; 0 starts every hedge at once */
  public long delayNanos() {
    return delayNanos;
  }

  /** @return the most attempts one group starts, the first included */
  public int maxAttempts() {
    return 1 + config.maxHedges();
  }

  /** Starts a group: one deposit into the budget, unless the call's retry makes it. */
  public void begin() {
    if (depositsPerGroup) {
      budget.deposit();
    }
  }

  /**
   * @param failure what an attempt failed with, possibly an async wrapper
   * @return true when it starts the next hedge at once (it matches {@code on}, not {@code ignore},
   *     and is neither an {@link Error} nor a refusal not named exactly); false when it decides the
   *     call
   */
  public boolean hedgesAfter(Throwable failure) {
    return filter.callsForAnotherAttempt(failure);
  }

  /**
   * Withdraws one hedge from the budget.
   *
   * @return false when the budget is empty: no further hedge starts in this group (report it with
   *     {@link #budgetExhausted})
   */
  public boolean withdraw() {
    return budget == null || budget.tryWithdraw();
  }

  /** Reports {@code hedge.started} for attempt 2, 3, …, once the breaker, limiter and bulkhead admitted it. */
  public void started(int attempt) {
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.hedgeStarted();
    }
    if (events.enabled(EventKind.HEDGE_STARTED)) {
      events.emit(EventKind.HEDGE_STARTED, config.name(), "call", callName, "attempt", attempt,
          "delay_ms", config.delay().toMillis());
    }
  }

  /**
   * Reports {@code hedge.won}: an attempt decided a group in which hedges started.
   *
   * @param attempt the attempt that decided
   * @param started how many attempts had started
   */
  public void won(int attempt, int started) {
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.hedgeWon(attempt == 1);
    }
    if (events.enabled(EventKind.HEDGE_WON)) {
      events.emit(EventKind.HEDGE_WON, config.name(), "call", callName, "attempt", attempt, "attempts", started);
    }
  }

  /** Reports {@code hedge.budget_exhausted}: attempt {@code attempt} did not start. */
  public void budgetExhausted(int attempt) {
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.hedgeBudgetExhausted();
    }
    if (events.enabled(EventKind.HEDGE_BUDGET_EXHAUSTED)) {
      events.emit(EventKind.HEDGE_BUDGET_EXHAUSTED, config.name(), "call", callName, "attempt", attempt,
          "budget", budget == null ? null : budget.name());
    }
  }

  /**
   * @param waitedFor the call's name
   * @param interrupted the caller's interrupt
   * @return what a synchronous caller interrupted while waiting for its attempts ends with
   */
  public static CallerInterrupted interruptedWhileWaiting(String waitedFor, InterruptedException interrupted) {
    return new CallerInterrupted("'" + waitedFor + "' was interrupted while waiting for its hedged attempts", interrupted);
  }
}
