package dev.brace.micrometer;

import dev.brace.runtime.Backend;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.Registry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
 * <p>Timers and counters are driven by the registry's events, so they count from the moment of
 * binding. Each meter is looked up once per call name or instance and kept, so recording a sample
 * allocates nothing here. A keyed family ({@code name[key]}) is reported under its family name;
 * with {@code brace.metrics.per-key=true} ({@link Registry#metricsPerKey()}) every meter that names
 * an instance also carries a {@code key} tag (empty for an instance without keys). Gauges are
 * per family: one series per key would grow without bound.
 */
public final class BraceMetrics implements AutoCloseable {
  private static final String NO_KEY = "";

  private final Registry brace;
  private final MeterRegistry meters;
  private final boolean perKey;
  /** Every meter this binding registered, by a key of its name and tags, so close() removes them. */
  private final Map<String, Meter> registered = new ConcurrentHashMap<>();
  private final Map<String, CallMeters> calls = new ConcurrentHashMap<>();
  /** Per meter name, then per instance (as the event names it, key included): its meters. */
  private final Map<String, Map<String, Meter>> byInstance = new ConcurrentHashMap<>();
  private final AutoCloseable subscription;
  private final ChaosMeters chaos;

  private BraceMetrics(Registry brace, MeterRegistry meters) {
    this.brace = brace;
    this.meters = meters;
    this.perKey = brace.metricsPerKey();
    this.chaos = new ChaosMeters(meters);
    // Subscribed first, so an instance created while the existing ones are gauged is not missed.
    this.subscription = brace.subscribeForMetrics(this::record);
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
    subscription.close();
    chaos.close();
    registered.values().forEach(meters::remove);
    registered.clear();
    calls.clear();
    byInstance.clear();
  }

  private void record(Event event) {
    Map<String, Object> attributes = event.attributes();
    switch (EventKind.of(event.kind())) {
      case INSTANCE_CREATED:
        instanceCreated(String.valueOf(attributes.get("kind")), event.instance(),
            Boolean.TRUE.equals(attributes.get("keyed")));
        break;
      case CALL_ENDED:
        callMeters(event.instance()).ended(attributes);
        break;
      case CALL_SUCCEEDED:
        callMeters(event.instance()).attempt(true, attributes);
        break;
      case CALL_FAILED:
        callMeters(event.instance()).attempt(false, attributes);
        break;
      case RATELIMIT_WAITED:
        waited("brace.ratelimit.wait", "time callers waited for a rate limiter's token", event);
        break;
      case BULKHEAD_WAITED:
        waited("brace.bulkhead.wait", "time callers waited for a bulkhead's permit", event);
        break;
      case CIRCUIT_OPENED:
      case CIRCUIT_HALF_OPEN:
      case CIRCUIT_CLOSED:
        transition(event.instance(), String.valueOf(attributes.get("from")), String.valueOf(attributes.get("to")));
        break;
      case CIRCUIT_REJECTED:
        rejected("circuitbreaker", "brace.rejections|circuitbreaker", event.instance());
        break;
      case RATELIMIT_REJECTED:
        rejected("ratelimit", "brace.rejections|ratelimit", event.instance());
        break;
      case BULKHEAD_REJECTED:
        rejected("bulkhead", "brace.rejections|bulkhead", event.instance());
        break;
      case RETRY_ATTEMPT_FAILED:
        boolean retried = attributes.containsKey("delay_ms");
        countBy(retried ? "brace.retry.attempts|retried" : "brace.retry.attempts|exhausted", "brace.retry.attempts",
            "failed attempts a retry answered with another attempt, or not", event.instance(),
            "outcome", retried ? "retried" : "exhausted");
        break;
      case HEDGE_STARTED:
        countBy("brace.hedge.attempts|started", "brace.hedge.attempts", "hedges started, or not started because the budget was empty", event.instance(), "outcome", "started");
        break;
      case HEDGE_BUDGET_EXHAUSTED:
        countBy("brace.hedge.attempts|budget_exhausted", "brace.hedge.attempts", "hedges started, or not started because the budget was empty", event.instance(), "outcome", "budget_exhausted");
        break;
      case HEDGE_WON:
        boolean first = Integer.valueOf(1).equals(attributes.get("attempt"));
        String winner = first ? "first" : "hedge";
        countBy(first ? "brace.hedge.wins|first" : "brace.hedge.wins|hedge", "brace.hedge.wins", "races decided after hedges had started, by the original attempt or by a hedge", event.instance(), "winner", winner);
        break;
      case TIMEOUT_EXCEEDED:
        ((Counter) instanceMeter("brace.timeouts", event.instance(), tags -> Counter.builder("brace.timeouts")
            .description("attempts cut off at their deadline").tags(tags))).increment();
        break;
      case DEADLINE_EXCEEDED:
        deadlineExceeded(event.instance());
        break;
      case STALE_SERVED:
        countBy("brace.stale|served", "brace.stale", "failed calls answered with a remembered result, or with none young enough", event.instance(), "outcome", "served");
        break;
      case STALE_MISSING:
        countBy("brace.stale|missing", "brace.stale", "failed calls answered with a remembered result, or with none young enough", event.instance(), "outcome", "missing");
        break;
      case CHAOS_INJECTED:
        chaos.injected(event);
        break;
      default:
        break;
    }
  }

  /** A call that ran out of its caller's deadline; its {@code brace.calls} sample carries the failure. */
  private void deadlineExceeded(String call) {
    ((Counter) instanceMeter("brace.deadline.exceeded", call, tags -> Counter.builder("brace.deadline.exceeded")
        .description("calls that ran out of the deadline they run under").tags(tags))).increment();
  }

  /** A counter of one instance with one tag that sets it apart; {@code cacheKey} names that pair. */
  private void countBy(String cacheKey, String meterName, String description, String instance, String tag, String value) {
    ((Counter) instanceMeter(cacheKey, instance, tags -> Counter.builder(meterName)
        .description(description).tags(tags).tag(tag, value))).increment();
  }

  /** Every refused attempt, including those a retry or a fallback then answered: a call's outcome hides them. */
  private void rejected(String kind, String cacheName, String instance) {
    ((Counter) instanceMeter(cacheName, instance, tags -> Counter.builder("brace.rejections")
        .description("attempts refused by a breaker, limiter or bulkhead").tags(tags).tag("kind", kind))).increment();
  }

  private void waited(String meterName, String description, Event event) {
    Object nanos = event.attributes().get("waited_ns");
    if (nanos instanceof Number) {
      ((Timer) instanceMeter(meterName, event.instance(), tags -> Timer.builder(meterName)
          .description(description).tags(tags))).record(((Number) nanos).longValue(), TimeUnit.NANOSECONDS);
    }
  }

  /** Transitions are rare, so their cache key may be built each time. */
  private void transition(String instance, String from, String to) {
    ((Counter) instanceMeter("brace.circuitbreaker.transitions|" + from + "|" + to, instance,
        tags -> Counter.builder("brace.circuitbreaker.transitions")
            .description("circuit breaker state changes").tags(tags)
            .tag("from", stateName(from)).tag("to", stateName(to)))).increment();
  }

  /** {@code HALF_OPEN} becomes {@code half_open}: tag values in Micrometer's lowercase style. */
  private static String stateName(String state) {
    return state.toLowerCase(java.util.Locale.ROOT);
  }

  /** The meter of one meter name and instance, built on first use; then a lookup without allocation. */
  private Meter instanceMeter(String cacheName, String instance, Function<Tags, ? extends Object> builder) {
    Map<String, Meter> byName = byInstance.get(cacheName);
    if (byName == null) {
      byName = byInstance.computeIfAbsent(cacheName, k -> new ConcurrentHashMap<>());
    }
    return meterFor(byName, instance, builder);
  }

  /**
   * Kept by family name unless per-key metrics are asked for, so that keys taken from user input
   * grow neither the series nor this cache.
   */
  private Meter meterFor(Map<String, Meter> byName, String instance, Function<Tags, ? extends Object> builder) {
    String cacheKey = perKey ? instance : familyName(instance);
    Meter meter = byName.get(cacheKey);
    if (meter != null) {
      return meter;
    }
    return byName.computeIfAbsent(cacheKey, k -> register(builder.apply(instanceTags(instance))));
  }

  /** {@code tenant[acme]} is of the family {@code tenant}; a name without a key is its own. */
  private static String familyName(String instance) {
    int open = instance.indexOf('[');
    return open > 0 && instance.endsWith("]") ? instance.substring(0, open) : instance;
  }

  private Meter register(Object builder) {
    Meter meter;
    if (builder instanceof Timer.Builder) {
      meter = ((Timer.Builder) builder).register(meters);
    } else if (builder instanceof Counter.Builder) {
      meter = ((Counter.Builder) builder).register(meters);
    } else {
      throw new IllegalArgumentException("not a timer or counter: " + builder);
    }
    // Two instances of one family share a meter; the map keeps one entry per meter.
    registered.putIfAbsent(meter.getId().toString(), meter);
    return meter;
  }

  /** {@code name} is the family; with per-key metrics a {@code key} tag names the member. */
  private Tags instanceTags(String instance) {
    String family = familyName(instance);
    Tags tags = Tags.of("name", family);
    return perKey ? tags.and("key", family.equals(instance) ? NO_KEY : instance.substring(family.length() + 1, instance.length() - 1)) : tags;
  }

  private CallMeters callMeters(String callName) {
    CallMeters found = calls.get(callName);
    return found != null ? found : calls.computeIfAbsent(callName, CallMeters::new);
  }

  /** The timers of one call name: attempts by outcome, calls by outcome and deciding instance. */
  private final class CallMeters {
    private final String callName;
    private final Timer attemptSucceeded;
    private final Timer attemptFailed;
    /** By the deciding instance's kind ({@code call} when none decided), then by its name as the event gives it. */
    private final Map<String, Map<String, Meter>> ended = new ConcurrentHashMap<>();

    CallMeters(String callName) {
      this.callName = callName;
      this.attemptSucceeded = attemptTimer("success");
      this.attemptFailed = attemptTimer("failure");
    }

    private Timer attemptTimer(String outcome) {
      return (Timer) register(Timer.builder("brace.attempts")
          .description("attempts that reached the dependency")
          .tags("call", callName, "outcome", outcome));
    }

    void attempt(boolean succeeded, Map<String, Object> attributes) {
      Object nanos = attributes.get("duration_ns");
      if (nanos instanceof Number) {
        (succeeded ? attemptSucceeded : attemptFailed).record(((Number) nanos).longValue(), TimeUnit.NANOSECONDS);
      }
    }

    void ended(Map<String, Object> attributes) {
      Object nanos = attributes.get("duration_ns");
      if (!(nanos instanceof Number)) {
        return;
      }
      String outcome = String.valueOf(attributes.get("outcome"));
      Object byKind = attributes.get("by_kind");
      String kind = byKind == null ? "call" : byKind.toString();
      Object by = attributes.get("by");
      String instance = by == null ? callName : by.toString();
      // The kind decides the outcome except for the delegate's own, so success and failure part here.
      Map<String, Meter> byName = ended.get(byKind == null ? outcome : kind);
      if (byName == null) {
        byName = ended.computeIfAbsent(byKind == null ? outcome : kind, k -> new ConcurrentHashMap<>());
      }
      ((Timer) meterFor(byName, instance, tags -> Timer.builder("brace.calls")
          .description("calls by outcome, as long as the caller waited for it")
          .tags(tags).tag("call", callName).tag("kind", kind).tag("outcome", outcome)))
          .record(((Number) nanos).longValue(), TimeUnit.NANOSECONDS);
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
    registered.computeIfAbsent(meterName + "|" + kind + "|" + name, key -> {
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
      if (perKey) {
        builder.tag("key", NO_KEY);
      }
      return builder.register(meters);
    });
  }

  /** One series per backend: it is made once, with the registry, and never per key. */
  private void gaugeBackend(String name, Backend backend) {
    registered.computeIfAbsent("brace.backend.available|" + name, key -> Gauge.builder("brace.backend.available", backend,
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
