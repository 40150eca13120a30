package dev.brace.micrometer;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.Registry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * Binds a Brace {@link Registry} to a Micrometer {@link MeterRegistry}.
 *
 * <ul>
 *   <li>{@code brace.calls} (counter; tags {@code kind}, {@code name}, {@code outcome}): per
 *       circuit breaker, rate limiter, bulkhead and timeout, the attempts that went through it and
 *       {@code success}ed or ended in {@code failure}, and those it {@code rejected}; per fallback,
 *       the calls it answered ({@code fallback}).
 *   <li>{@code brace.retry.attempts} (counter; {@code name}, {@code outcome} {@code retried} or
 *       {@code exhausted}): failed attempts a retry answered with another attempt, or not.
 *   <li>{@code brace.timeouts} (counter; {@code name}): attempts cut off at their deadline.
 *   <li>{@code brace.stale} (counter; {@code name}, {@code outcome} {@code served} or {@code
 *       missing}): failed calls {@code @StaleIfError} answered with a remembered result, or found
 *       none young enough for.
 *   <li>{@code brace.circuitbreaker.state} (gauge; {@code name}): 0 closed, 1 open, 2 half-open.
 *   <li>{@code brace.bulkhead.in_flight} and {@code brace.ratelimiter.available_permits} (gauges;
 *       {@code name}).
 *   <li>{@code brace.bulkhead.limit} and {@code brace.ratelimiter.rate} (gauges; {@code name}): a
 *       bulkhead's current limit ({@code maxConcurrent} unless adaptive) and a limiter's current
 *       rate in permits per period ({@code permits} unless adaptive).
 * </ul>
 *
 * <p>Counters are driven by the registry's events, so they count from the moment of binding.
 * Gauges exist for every shared instance the registry has created and for each it creates later;
 * they read the instance at each scrape. A keyed family ({@code name[key]}) is counted under its
 * family name, and has no gauges: one series per key would grow without bound.
 */
public final class BraceMetrics implements AutoCloseable {
  private final Registry brace;
  private final MeterRegistry meters;
  private final Map<String, Meter> registered = new ConcurrentHashMap<>();
  private final AutoCloseable subscription;

  private BraceMetrics(Registry brace, MeterRegistry meters) {
    this.brace = brace;
    this.meters = meters;
    // Subscribed first, so an instance created while the existing ones are gauged is not missed.
    this.subscription = brace.subscribeForMetrics(this::record);
    brace.names().forEach((kind, names) -> names.stream().filter(name -> exists(kind, name)).forEach(name -> gauge(kind, name)));
  }

  /**
   * Starts publishing a registry's metrics.
   *
   * @param braceRegistry the instances to observe
   * @param meters where the meters are registered
   * @return closing it stops counting and removes every meter it registered
   * @throws NullPointerException when an argument is null
   */
  public static AutoCloseable bind(Registry braceRegistry, MeterRegistry meters) {
    return new BraceMetrics(
        Objects.requireNonNull(braceRegistry, "braceRegistry"), Objects.requireNonNull(meters, "meters"));
  }

  /** Stops counting and removes every meter this binding registered. */
  @Override
  public void close() throws Exception {
    subscription.close();
    registered.values().forEach(meters::remove);
    registered.clear();
  }

  private void record(Event event) {
    Map<String, Object> attributes = event.attributes();
    switch (EventKind.of(event.kind())) {
      case INSTANCE_CREATED:
        if (!Boolean.TRUE.equals(attributes.get("keyed"))) {
          gauge(String.valueOf(attributes.get("kind")), event.instance());
        }
        break;
      case CALL_SUCCEEDED:
        countInstancesOf(attributes, "success");
        break;
      case CALL_FAILED:
        countInstancesOf(attributes, "failure");
        break;
      case CIRCUIT_REJECTED:
        call("circuitbreaker", event.instance(), "rejected");
        break;
      case RATELIMIT_REJECTED:
        call("ratelimit", event.instance(), "rejected");
        break;
      case BULKHEAD_REJECTED:
        call("bulkhead", event.instance(), "rejected");
        break;
      case FALLBACK_USED:
        call("fallback", event.instance(), "fallback");
        break;
      case RETRY_ATTEMPT_FAILED:
        count("brace.retry.attempts", "name", event.instance(),
            "outcome", attributes.containsKey("delay_ms") ? "retried" : "exhausted");
        break;
      case TIMEOUT_EXCEEDED:
        count("brace.timeouts", "name", event.instance());
        break;
      case STALE_SERVED:
        count("brace.stale", "name", event.instance(), "outcome", "served");
        break;
      case STALE_MISSING:
        count("brace.stale", "name", event.instance(), "outcome", "missing");
        break;
      default:
        break;
    }
  }

  /** A call outcome names each instance the attempt went through, by kind. */
  private void countInstancesOf(Map<String, Object> attributes, String outcome) {
    for (String kind : new String[] {"circuitbreaker", "ratelimit", "bulkhead", "timeout"}) {
      Object name = attributes.get(kind);
      if (name != null) {
        call(kind, name.toString(), outcome);
      }
    }
  }

  private void call(String kind, String instance, String outcome) {
    count("brace.calls", "kind", kind, "name", familyName(instance), "outcome", outcome);
  }

  private void count(String meterName, String... tags) {
    String key = meterName + String.join("|", tags);
    Meter counter = registered.computeIfAbsent(key, k -> Counter.builder(meterName).tags(tags).register(meters));
    ((Counter) counter).increment();
  }

  private void gauge(String kind, String name) {
    switch (kind) {
      case "circuitbreaker":
        gauge("brace.circuitbreaker.state", name, registry -> stateValue(registry.circuitBreaker(name).state()));
        break;
      case "bulkhead":
        gauge("brace.bulkhead.in_flight", name, registry -> registry.bulkhead(name).inFlight());
        gauge("brace.bulkhead.limit", name, registry -> registry.bulkhead(name).limit());
        break;
      case "ratelimit":
        gauge("brace.ratelimiter.available_permits", name, registry -> registry.rateLimiter(name).availablePermits());
        gauge("brace.ratelimiter.rate", name, registry -> registry.rateLimiter(name).currentRate());
        break;
      default:
        break;
    }
  }

  /**
   * The gauge looks its instance up at each scrape: an instance is announced before it is stored,
   * and one switched off by configuration never is; either reads as NaN rather than failing.
   */
  private void gauge(String meterName, String name, ToDoubleFunction<Registry> read) {
    registered.computeIfAbsent(meterName + "|" + name, key ->
        Gauge.builder(meterName, brace, registry -> {
              try {
                return read.applyAsDouble(registry);
              } catch (IllegalArgumentException notThere) {
                return Double.NaN;
              }
            })
            .tag("name", name)
            .register(meters));
  }

  /** False for a keyed family's name and for an instance switched off by configuration. */
  private boolean exists(String kind, String name) {
    try {
      switch (kind) {
        case "circuitbreaker":
          brace.circuitBreaker(name);
          return true;
        case "bulkhead":
          brace.bulkhead(name);
          return true;
        case "ratelimit":
          brace.rateLimiter(name);
          return true;
        default:
          return false;
      }
    } catch (IllegalArgumentException notThere) {
      return false;
    }
  }

  private static double stateValue(CircuitState state) {
    switch (state) {
      case CLOSED:
        return 0;
      case OPEN:
        return 1;
      default:
        return 2;
    }
  }

  /** {@code tenant[acme]} counts as {@code tenant}: one series per family, not per key. */
  private static String familyName(String instance) {
    int open = instance.indexOf('[');
    return open > 0 && instance.endsWith("]") ? instance.substring(0, open) : instance;
  }
}
