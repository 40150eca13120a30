package dev.brace.runtime;

import dev.brace.runtime.internal.Message;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.event.Level;

/**
 * Every event Brace emits, with its stable name ({@link Event#kind()}), the logger it is written
 * to and at which level. State changes are worth a WARN or INFO line; what a failing dependency
 * produces at the callers' full rate (refusals, waits, single failed attempts) only DEBUG, so a
 * storm cannot flood the logs. Kinds marked metrics-only fire once per attempt or per created
 * instance: they reach only listeners subscribed with {@link Registry#subscribeForMetrics}, never
 * a log, a trace or an ordinary listener.
 */
public enum EventKind {
  /** An attempt failed, whether or not a retry follows (it carries {@code delay_ms} when one does). */
  RETRY_ATTEMPT_FAILED("retry.attempt_failed", Level.DEBUG),
  /** A retry stopped: attempts or {@code maxDuration} spent; the last failure ends the call. */
  RETRY_EXHAUSTED("retry.exhausted", Level.INFO),
  /** A retry stopped because its shared retry budget was empty. */
  RETRY_BUDGET_EXHAUSTED("retry.budget_exhausted", Level.INFO),
  /** A breaker opened (classic threshold, rate, or a failed probe). */
  CIRCUIT_OPENED("circuit.opened", Level.WARN),
  /** A breaker moved from OPEN to HALF_OPEN to admit a probe. */
  CIRCUIT_HALF_OPEN("circuit.half_open", Level.INFO),
  /** A breaker closed (probes succeeded, or {@code reset()}). */
  CIRCUIT_CLOSED("circuit.closed", Level.INFO),
  /** A breaker refused a call. */
  CIRCUIT_REJECTED("circuit.rejected", Level.DEBUG),
  /** A rate limiter refused a call. */
  RATELIMIT_REJECTED("ratelimit.rejected", Level.DEBUG),
  /** A call waited for a token ({@code waited_ms}, {@code waited_ns}). */
  RATELIMIT_WAITED("ratelimit.waited", Level.DEBUG),
  /** An adaptive limiter's rate moved ({@code from}, {@code to}, permits per period); at most once per 100 ms. */
  RATELIMIT_RATE_CHANGED("ratelimit.rate_changed", Level.DEBUG),
  /** A bulkhead refused a call (full, or the call's criticality shed). */
  BULKHEAD_REJECTED("bulkhead.rejected", Level.DEBUG),
  /** An adaptive bulkhead's limit moved ({@code from}, {@code to}); at most once per 100 ms. */
  BULKHEAD_LIMIT_CHANGED("bulkhead.limit_changed", Level.DEBUG),
  /** A call waited for a bulkhead permit and got one ({@code waited_ms}, {@code waited_ns}). */
  BULKHEAD_WAITED("bulkhead.waited", Level.DEBUG),
  /** An attempt ran past its timeout. */
  TIMEOUT_EXCEEDED("timeout.exceeded", Level.INFO),
  /**
   * A call ran out of the deadline it runs under ({@code call}; {@code budget_ms}, the deadline's
   * length; {@code overrun_ms}, how far past it the call gave up): refused before its attempt, a
   * wait that could not end in time, or an attempt cut short. Fires at the callers' full rate when
   * a dependency slows, hence DEBUG.
   */
  DEADLINE_EXCEEDED("deadline.exceeded", Level.DEBUG),
  /** A fallback answered a failure. */
  FALLBACK_USED("fallback.used", Level.INFO),
  /** A remembered result answered a failed call ({@code @StaleIfError}); {@code age_ms} is its age. */
  STALE_SERVED("stale.served", Level.INFO),
  /** A failed call matched {@code @StaleIfError} but nothing young enough was remembered for its key. */
  STALE_MISSING("stale.missing", Level.DEBUG),
  /** A hedge passed the breaker, limiter and bulkhead and is sent: attempt 2, 3, … of its group. */
  HEDGE_STARTED("hedge.started", Level.DEBUG),
  /** An attempt decided a group in which at least one hedge had started. */
  HEDGE_WON("hedge.won", Level.DEBUG),
  /** The retry budget refused a hedge, so no further one starts in that group. */
  HEDGE_BUDGET_EXHAUSTED("hedge.budget_exhausted", Level.INFO),
  /** A state backend (Redis) became unreachable; instances fall back as configured. */
  BACKEND_UNAVAILABLE("backend.unavailable", Level.WARN),
  /** A state backend is reachable again. */
  BACKEND_RECOVERED("backend.recovered", Level.INFO),
  /**
   * Fault injection delayed or failed an attempt ({@code call}; {@code kind} of what the name names,
   * {@code call} for the call's own; {@code what}: {@code latency} with {@code latency_ms}, or
   * {@code fault} with the exception's class in {@code fault}); the instance is the name it is
   * configured under.
   */
  CHAOS_INJECTED("chaos.injected", Level.DEBUG),
  /** A reconfiguration changed one property of a live instance ({@code kind}, {@code property}, {@code from}, {@code to}). */
  CONFIG_CHANGED("config.changed", Level.INFO),
  /** An attempt that reached the dependency returned. */
  CALL_SUCCEEDED("call.succeeded", null),
  /** An attempt that reached the dependency threw. */
  CALL_FAILED("call.failed", null),
  /** A shared instance was created; a keyed family is reported once, as the family. */
  INSTANCE_CREATED("instance.created", null),
  /**
   * A call's outcome was decided ({@code outcome}: success, failure, rejected, timeout or
   * fallback; {@code duration_ns} since it began; {@code by_kind}/{@code by} the instance that
   * decided it when a pattern did), once per call, before a fallback runs.
   */
  CALL_ENDED("call.ended", null);

  private static final Map<String, EventKind> BY_NAME = new HashMap<>();

  static {
    for (EventKind kind : values()) {
      BY_NAME.put(kind.key, kind);
    }
  }

  private final String key;
  private final Level level;
  private final String logger;

  EventKind(String key, Level level) {
    this.key = key;
    this.level = level;
    this.logger = loggerOf(key.substring(0, key.indexOf('.')));
  }

  /**
   * The pattern's logger ({@code circuit.*} events go to {@code dev.brace.circuitbreaker}, {@code
   * chaos.*} to {@code dev.brace.chaos}); {@code dev.brace} for the rest.
   */
  private static String loggerOf(String prefix) {
    switch (prefix) {
      case "circuit":
        return "dev.brace.circuitbreaker";
      case "retry":
      case "hedge":
      case "ratelimit":
      case "bulkhead":
      case "timeout":
      case "deadline":
      case "fallback":
      case "stale":
      case "chaos":
        return "dev.brace." + prefix;
      default:
        return "dev.brace";
    }
  }

  /** @return the stable name, e.g. {@code "circuit.opened"}, as {@link Event#kind()} gives it */
  public String key() {
    return key;
  }

  /** @return the SLF4J logger it is written to, e.g. {@code dev.brace.circuitbreaker} */
  public String logger() {
    return logger;
  }

  /** @return the level it is logged at; null for a metrics-only kind, which is never logged */
  public Level level() {
    return level;
  }

  /** @return whether only metrics listeners receive it */
  public boolean isMetricsOnly() {
    return level == null;
  }

  /**
   * @param key a stable name, e.g. {@code "circuit.opened"}
   * @return the kind of that name
   * @throws IllegalArgumentException when no event has that name
   */
  public static EventKind of(String key) {
    EventKind kind = BY_NAME.get(Objects.requireNonNull(key, "key"));
    if (kind == null) {
      throw new IllegalArgumentException(Message.UNKNOWN_EVENT.format(key, new java.util.TreeSet<>(BY_NAME.keySet())));
    }
    return kind;
  }

  @Override
  public String toString() {
    return key;
  }
}
