package dev.brace.micrometer;

import dev.brace.runtime.Backend;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.metrics.CallMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import dev.brace.runtime.metrics.MetricsListener;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * Binds a Brace {@link Registry} to a Micrometer {@link MeterRegistry}. Names and units follow
 * Micrometer's conventions; docs/observability.md lists each meter with the Prometheus name it
 * becomes.
 *
 * <ul>
 *   <li>{@code brace.calls} (timer; {@code call}, {@code kind}, {@code name}, {@code outcome}): one
 *       sample per call, how long the caller waited for its outcome ({@code success}, {@code
 *       failure}, {@code rejected}, {@code timeout} or {@code fallback}), until the fallback is
 *       called. {@code kind}/{@code name} name the instance that decided the outcome — the refusing
 *       breaker, limiter or bulkhead, the timeout, the fallback — and are {@code call} and the call's
 *       name when the delegate's own result or failure did.
 *   <li>{@code brace.attempts} (timer; {@code call}, {@code outcome} {@code success} or {@code
 *       failure}): each attempt that reached the dependency, retries included.
 *   <li>{@code brace.rejections} (counter; {@code kind}, {@code name}): attempts the breaker,
 *       limiter or bulkhead refused, also those a retry or a fallback then answered.
 *   <li>{@code brace.ratelimit.wait}, {@code brace.bulkhead.wait} (timers; {@code name}): how long
 *       callers waited for a token or a permit they then got.
 *   <li>{@code brace.circuitbreaker.transitions} (counter; {@code name}, {@code from}, {@code
 *       to}): every state change, which a scrape of the state gauge can miss.
 *   <li>{@code brace.retry.attempts} (counter; {@code name}, {@code outcome} {@code retried} or
 *       {@code exhausted}): failed attempts a retry answered with another attempt, or not.
 *   <li>{@code brace.hedge.attempts} (counter; {@code name}, {@code outcome} {@code started} or
 *       {@code budget_exhausted}): hedges started, or not started because the budget was empty.
 *   <li>{@code brace.hedge.wins} (counter; {@code name}, {@code winner} {@code first} or {@code
 *       hedge}): races decided after hedges had started, by the original attempt or by a hedge.
 *   <li>{@code brace.timeouts} (counter; {@code name}): attempts cut off at their deadline.
 *   <li>{@code brace.deadline.exceeded} (counter; {@code name}, the call): calls that ran out of
 *       the deadline they run under.
 *   <li>{@code brace.stale} (counter; {@code name}, {@code outcome} {@code served} or {@code
 *       missing}): failed calls {@code @StaleIfError} answered with a remembered result, or found
 *       none young enough for.
 *   <li>Gauges, read at each scrape: {@code brace.circuitbreaker.state} (0 closed, 1 open, 2
 *       half-open), {@code brace.bulkhead.in_flight}, {@code brace.ratelimiter.available_permits},
 *       {@code brace.retry.budget.available} ({@code name}); {@code brace.keyed.instances} ({@code
 *       kind}, {@code name}): the members a keyed family holds now.
 *   <li>{@code brace.chaos.injections} (counter; {@code kind}, {@code name}, {@code what} {@code
 *       latency} or {@code fault}): attempts fault injection delayed or failed (see {@link ChaosMeters}).
 *   <li>{@code brace.bulkhead.limit} and {@code brace.ratelimiter.rate} (gauges; {@code name}): a
 *       bulkhead's current limit ({@code maxConcurrent} unless adaptive) and a limiter's current
 *       rate in permits per period ({@code permits} unless adaptive).
 *   <li>{@code brace.backend.available} (gauge; {@code name}, the backend's as settings name it):
 *       1 while every part of a backend's store can be reached, 0 during an outage (its instances
 *       then decide with their fallback), NaN for a backend that cannot tell ({@link
 *       dev.brace.runtime.Backend#status()}).
 * </ul>
 *
 * <p>Timers and counters are fed by the registry's typed metrics path ({@link Registry#bindMetrics}):
 * each call and instance reports with primitive arguments to meters this binding resolved once
 * per call name and instance ({@code CallMeters}, {@code InstanceMeters}), so a call with metrics
 * bound builds no event and recording a sample allocates nothing; they count from the moment of
 * binding. A keyed family ({@code name[key]}) is reported under its family name; with {@code
 * brace.metrics.per-key=true} ({@link Registry#metricsPerKey()}) every meter that names an
 * instance also carries a {@code key} tag (empty for an instance without keys). Gauges are per
 * family: one series per key would grow without bound.
 */
public final class BraceMetrics implements AutoCloseable {
  private final Registry brace;
  private final MeterBook book;
  private final Map<String, CallMeters> calls = new ConcurrentHashMap<>();
  /** By kind and instance (a member's family, unless per key). */
  private final Map<String, InstanceMeters> instances = new ConcurrentHashMap<>();
  private final AutoCloseable binding;

  private BraceMetrics(Registry brace, MeterRegistry meters) {
    this.brace = brace;
    this.book = new MeterBook(meters, brace.metricsPerKey());
    // Bound first, so an instance created while the existing ones are gauged is not missed.
    this.binding = brace.bindMetrics(new Listener());
    brace.names().forEach((kind, names) -> names.forEach(name -> gaugeExisting(kind, name)));
    brace.backends().forEach(this::gaugeBackend);
  }

  /**
   * Starts publishing a registry's metrics.
   *
   * @param braceRegistry the instances to observe
   * @param meters where the meters are registered
   * @return closing it stops counting and removes every meter it registered
   * @throws NullPointerException when an argument is null
   * @throws dev.brace.runtime.ConfigurationException when {@code brace.metrics.per-key} (or {@code
   *     BRACE_METRICS_PER_KEY}) is neither {@code true} nor {@code false}
   */
  public static AutoCloseable bind(Registry braceRegistry, MeterRegistry meters) {
    return new BraceMetrics(
        Objects.requireNonNull(braceRegistry, "braceRegistry"), Objects.requireNonNull(meters, "meters"));
  }

  /** Stops counting and removes every meter this binding registered. */
  @Override
  public void close() throws Exception {
    binding.close();
    book.removeAll();
    calls.clear();
    instances.clear();
  }

  /**
   * What the registry's calls and instances report to: their meters, made once per call name and
   * per instance (family). Kept out of the public type, which is only a binding.
   */
  private final class Listener implements MetricsListener {
    @Override
    public CallMetrics call(String callName) {
      CallMeters found = calls.get(callName);
      return found != null ? found : calls.computeIfAbsent(callName, name -> new CallMeters(book, name));
    }

    @Override
    public InstanceMetrics instance(Kind kind, String name) {
      return instances.computeIfAbsent(kind.key() + "|" + book.instanceKey(name), key -> new InstanceMeters(book, kind, name));
    }

    @Override
    public void instanceCreated(Kind kind, String name, boolean keyed) {
      BraceMetrics.this.instanceCreated(kind.key(), name, keyed);
    }

    @Override
    public String toString() {
      return "BraceMetrics";
    }
  }

  // ---- gauges ----

  private void gaugeExisting(String kind, String name) {
    if (name.indexOf('[') > 0) {
      return; // a member of a keyed family: its family is gauged by name
    }
    boolean keyed = brace.names().getOrDefault(kind, Set.of()).stream().anyMatch(other -> other.startsWith(name + "["))
        || !exists(kind, name);
    instanceCreated(kind, name, keyed);
  }

  private void instanceCreated(String kind, String name, boolean keyed) {
    if (keyed) {
      if (kind.equals("circuitbreaker") || kind.equals("ratelimit")) {
        gauge("brace.keyed.instances", kind, name, "members a keyed family holds now",
            registry -> registry.names().getOrDefault(kind, Set.of()).stream()
                .filter(member -> member.startsWith(name + "[")).count());
      }
      return;
    }
    switch (kind) {
      case "circuitbreaker":
        gauge("brace.circuitbreaker.state", null, name, "0 closed, 1 open, 2 half-open",
            registry -> stateValue(registry.circuitBreaker(name).state()));
        break;
      case "bulkhead":
        gauge("brace.bulkhead.in_flight", null, name, "calls holding a permit",
            registry -> registry.bulkhead(name).inFlight());
        gauge("brace.bulkhead.limit", null, name, "the current limit: maxConcurrent unless adaptive",
            registry -> registry.bulkhead(name).limit());
        break;
      case "ratelimit":
        gauge("brace.ratelimiter.available_permits", null, name, "tokens available now",
            registry -> registry.rateLimiter(name).availablePermits());
        gauge("brace.ratelimiter.rate", null, name, "the current rate in permits per period: permits unless adaptive",
            registry -> registry.rateLimiter(name).currentRate());
        break;
      case "retrybudget":
        gauge("brace.retry.budget.available", null, name, "retries the budget allows now",
            registry -> registry.retryBudget(name).available());
        break;
      default:
        break;
    }
  }

  /**
   * The gauge looks its instance up at each scrape: an instance is announced before it is stored,
   * and one switched off by configuration never is; either reads as NaN rather than failing.
   */
  private void gauge(String meterName, String kind, String name, String description, ToDoubleFunction<Registry> read) {
    book.registerOnce(meterName + "|" + kind + "|" + name, meters -> {
      Gauge.Builder<Registry> builder = Gauge.builder(meterName, brace, registry -> {
            try {
              return read.applyAsDouble(registry);
            } catch (IllegalArgumentException notThere) {
              return Double.NaN;
            }
          })
          .description(description)
          .tag("name", name);
      if (kind != null) {
        builder.tag("kind", kind);
      }
      if (book.perKey()) {
        builder.tag("key", MeterBook.noKey());
      }
      return builder.register(meters);
    });
  }

  /** One series per backend: it is made once, with the registry, and never per key. */
  private void gaugeBackend(String name, Backend backend) {
    book.registerOnce("brace.backend.available|" + name, meters -> Gauge.builder("brace.backend.available", backend,
            b -> b.status().map(status -> status.available() ? 1.0 : 0.0).orElse(Double.NaN))
        .description("1 while the backend's store can be reached, 0 during an outage")
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
        case "ratelimit":
          brace.rateLimiter(name);
          return true;
        default:
          return true;
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
}
