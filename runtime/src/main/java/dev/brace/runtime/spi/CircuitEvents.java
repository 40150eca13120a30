package dev.brace.runtime.spi;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * The events of one circuit breaker, with the attributes every breaker gives them, so a
 * local breaker and a shared one report a transition identically. Only the breaker that made a
 * transition reports it. Each method checks first whether anyone listens, so nothing is built for
 * nobody; refusals and transitions reach a bound metrics listener without an event.
 */
public final class CircuitEvents {
  private final EventSink events;
  private final CircuitBreakerConfig config;
  private final BoundMetrics<InstanceMetrics> metrics;

  /**
   * @param events where the events go
   * @param config the breaker's settings, named in the events
   */
  public CircuitEvents(EventSink events, CircuitBreakerConfig config) {
    this.events = Objects.requireNonNull(events, "events");
    this.config = Objects.requireNonNull(config, "config");
    this.metrics = BoundMetrics.ofInstance(events, Kind.CIRCUITBREAKER, config.name());
  }

  /**
   * Reports a refusal and returns the exception to throw.
   *
   * @param refusedIn the state that refused
   * @param retryAfter time until a probe is admitted, or null while a probe is in flight
   * @return the refusal
   */
  public dev.brace.runtime.CircuitOpenException rejected(CircuitState refusedIn, Duration retryAfter) {
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.rejected();
    }
    if (events.enabled(EventKind.CIRCUIT_REJECTED)) {
      events.emit(
          EventKind.CIRCUIT_REJECTED,
          config.name(),
          "state",
          refusedIn.name(),
          "retry_after_ms",
          retryAfter == null ? null : retryAfter.toMillis());
    }
    return new dev.brace.runtime.CircuitOpenException(config.name(), retryAfter);
  }

  /**
   * Classic mode, and a failed probe in either mode.
   *
   * @param from the state it left: CLOSED, or HALF_OPEN for a failed probe
   * @param failures the consecutive failures that opened it
   * @param cause the failure that opened it, or null for a result
   */
  public void openedByThreshold(CircuitState from, int failures, Throwable cause) {
    transitioned(from, CircuitState.OPEN);
    if (events.enabled(EventKind.CIRCUIT_OPENED)) {
      opened(from, cause, "failure_threshold", config.failureThreshold(), "failures", failures);
    }
  }

  /**
   * A probe that returned, but took longer than {@code slowCall}: a failed probe, reported the
   * classic way, with the latency it exceeded.
   */
  public void openedBySlowProbe() {
    transitioned(CircuitState.HALF_OPEN, CircuitState.OPEN);
    if (events.enabled(EventKind.CIRCUIT_OPENED)) {
      opened(CircuitState.HALF_OPEN, null, "failure_threshold", config.failureThreshold(), "failures", 1,
          "slow_call_ms", config.slowCall().toMillis());
    }
  }

  /**
   * Rate mode.
   *
   * @param failureRate the observed rate
   * @param calls the outcomes in the window
   * @param cause the failure recorded last, or null
   */
  public void openedByRate(double failureRate, long calls, Throwable cause) {
    openedByRates(failureRate, Double.NaN, calls, cause);
  }

  /**
   * Rate mode, slow calls, or both: each rate that is judged is reported with its threshold.
   *
   * @param failureRate the observed failure rate, or NaN when failures are not judged by rate
   * @param slowCallRate the observed share of slow calls, or NaN when latency is not judged
   * @param calls the outcomes in the window
   * @param cause the failure recorded last, or null
   */
  public void openedByRates(double failureRate, double slowCallRate, long calls, Throwable cause) {
    transitioned(CircuitState.CLOSED, CircuitState.OPEN);
    if (events.enabled(EventKind.CIRCUIT_OPENED)) {
      boolean failures = !Double.isNaN(failureRate);
      boolean slow = !Double.isNaN(slowCallRate);
      opened(
          CircuitState.CLOSED,
          cause,
          "failure_rate",
          failures ? failureRate : null,
          "failure_rate_threshold",
          failures ? config.failureRate() : null,
          "slow_call_rate",
          slow ? slowCallRate : null,
          "slow_call_rate_threshold",
          slow ? config.slowCallRate() : null,
          "window",
          config.windowCalls() > 0
              ? "last " + config.windowCalls() + " calls"
              : dev.brace.runtime.Durations.describe(config.window()),
          "observed_calls",
          calls);
    }
  }

  /**
   * The circuit was forced open by hand ({@code CircuitBreakerHandle.forceOpen()}): reported as an
   * opening with {@code forced=true} and no cooldown, since no probe follows until it is reset.
   *
   * @param from the state it left
   */
  public void openedByHand(CircuitState from) {
    transitioned(from, CircuitState.OPEN);
    if (events.enabled(EventKind.CIRCUIT_OPENED)) {
      events.emit(EventKind.CIRCUIT_OPENED, config.name(), "forced", true, "from", from.name(), "to", CircuitState.OPEN.name());
    }
  }

  /** OPEN moved to HALF_OPEN. */
  public void halfOpen() {
    transitioned(CircuitState.OPEN, CircuitState.HALF_OPEN);
    if (events.enabled(EventKind.CIRCUIT_HALF_OPEN)) {
      events.emit(EventKind.CIRCUIT_HALF_OPEN, config.name(), "from", CircuitState.OPEN.name(), "to", CircuitState.HALF_OPEN.name());
    }
  }

  /**
   * The circuit closed.
   *
   * @param from the state it left: HALF_OPEN after the probes, or any on {@code reset()}
   */
  public void closed(CircuitState from) {
    transitioned(from, CircuitState.CLOSED);
    if (events.enabled(EventKind.CIRCUIT_CLOSED)) {
      events.emit(EventKind.CIRCUIT_CLOSED, config.name(), "from", from.name(), "to", CircuitState.CLOSED.name());
    }
  }

  private void transitioned(CircuitState from, CircuitState to) {
    InstanceMetrics bound = metrics.get();
    if (bound != null) {
      bound.transitioned(from, to);
    }
  }

  /** Why it opened, then what every opening carries. */
  private void opened(CircuitState from, Throwable cause, Object... why) {
    Throwable real = cause == null ? null : ExceptionFilter.unwrap(cause);
    Object[] attributes = Arrays.copyOf(why, why.length + 10);
    attributes[why.length] = "exception";
    attributes[why.length + 1] = real == null ? null : real.getClass().getName();
    attributes[why.length + 2] = "message";
    attributes[why.length + 3] = real == null ? null : real.getMessage();
    attributes[why.length + 4] = "retry_after_ms";
    attributes[why.length + 5] = config.resetTimeout().toMillis();
    attributes[why.length + 6] = "from";
    attributes[why.length + 7] = from.name();
    attributes[why.length + 8] = "to";
    attributes[why.length + 9] = CircuitState.OPEN.name();
    events.emit(EventKind.CIRCUIT_OPENED, config.name(), attributes);
  }
}
