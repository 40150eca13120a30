package dev.brace.runtime.internal.store;

import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DefaultCircuitBreaker;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.internal.policy.RetryBudget;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.internal.sequence.CallGuard;

import dev.brace.runtime.Backend;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.EventSink;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What a {@code Registry} holds: the shared, named instances, the layers of configuration above
 * the annotations, and the clock, scheduler and event bus every policy uses. It turns a {@link
 * CallDefinition} into a {@link CallGuard}, creating system-scoped instances on first use and
 * sharing them afterwards.
 */
public final class InstanceStore {
  private final TimeSource time;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final ThreadFactory abandonedWorkers;
  private final EventBus events;
  private final ConfigLayers layers;
  private final Map<String, Backend> backends;

  private final ConcurrentHashMap<String, CircuitBreakers> breakers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, RateLimiters> limiters = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, SemaphoreBulkhead> bulkheads = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, RetryBudget> budgets = new ConcurrentHashMap<>();
  /** The annotation values that created each system-scoped instance, to catch a conflicting second site. */
  private final ConcurrentHashMap<String, Map<String, Object>> annotationValues = new ConcurrentHashMap<>();
  private final Map<Kind, Set<String>> names = new ConcurrentHashMap<>();
  private final Map<Kind, Set<String>> switchedOff = new ConcurrentHashMap<>();

  /**
   * @param time the clock of every policy
   * @param scheduler the scheduler for deadlines and async waits, created on first use
   * @param abandonedWorkers creates the threads of {@code ABANDON} timeouts
   * @param events the event boundary
   * @param layers configuration above the annotations
   * @param backends where instances whose {@code backend} names one keep their state, by name
   */
  public InstanceStore(
      TimeSource time,
      Supplier<ScheduledExecutorService> scheduler,
      ThreadFactory abandonedWorkers,
      EventBus events,
      ConfigLayers layers,
      Map<String, Backend> backends) {
    this.time = Objects.requireNonNull(time, "time");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.abandonedWorkers = Objects.requireNonNull(abandonedWorkers, "abandonedWorkers");
    this.events = Objects.requireNonNull(events, "events");
    this.layers = Objects.requireNonNull(layers, "layers");
    this.backends = Map.copyOf(Objects.requireNonNull(backends, "backends"));
  }

  /** @return the event boundary */
  public EventBus events() {
    return events;
  }

  /** @return the clock */
  public TimeSource time() {
    return time;
  }

  /** @return the scheduler, created on first call */
  public ScheduledExecutorService scheduler() {
    return scheduler.get();
  }

  /**
   * Resolves every pattern of a call and returns its guard; system-scoped instances are created
   * on first use and shared afterwards.
   *
   * @param definition the call as annotated
   * @return the guard
   * @throws ConfigurationException when a setting is invalid or conflicts with an earlier site
   */
  public CallGuard guard(CallDefinition definition) {
    Objects.requireNonNull(definition, "definition");
    if (!layers.globallyEnabled()) {
      return new CallGuard(events, definition.callName(), null, null, null, null, null, null, scheduler);
    }
    RetryPolicy retry = null;
    if (enabled(Kind.RETRY, definition.retry())) {
      RetryConfig config = layers.resolve(Kind.RETRY, definition.retry(), RetryConfig.builder(definition.retry().name())).build();
      remember(Kind.RETRY, config.name());
      boolean budgeted = !config.budget().isEmpty() && layers.enabled(Kind.RETRYBUDGET, config.budget());
      retry = new RetryPolicy(config, definition.callName(), time, events, budgeted ? budget(config.budget()) : null);
    }
    CircuitBreakers breaker = null;
    if (enabled(Kind.CIRCUITBREAKER, definition.circuitBreaker())) {
      CircuitBreakerConfig.Builder layer = definition.circuitBreaker();
      breaker = breakers.computeIfAbsent(layer.name(), name -> {
        CircuitBreakerConfig config = layers.resolve(Kind.CIRCUITBREAKER, layer, CircuitBreakerConfig.builder(name)).build();
        created(Kind.CIRCUITBREAKER, name, !config.key().isEmpty());
        Backend backend = backend(Kind.CIRCUITBREAKER, name, config.backend());
        return CircuitBreakers.of(
            config,
            backend == null ? this::localBreaker : c -> backend.circuitBreaker(c, new Context(c.backend())));
      });
      checkSameSettings(Kind.CIRCUITBREAKER, layer);
    }
    RateLimiters limiter = null;
    if (enabled(Kind.RATELIMIT, definition.rateLimit())) {
      RateLimitConfig.Builder layer = definition.rateLimit();
      limiter = limiters.computeIfAbsent(layer.name(), name -> {
        RateLimitConfig config = layers.resolve(Kind.RATELIMIT, layer, RateLimitConfig.builder(name)).build();
        created(Kind.RATELIMIT, name, !config.key().isEmpty());
        Backend backend = backend(Kind.RATELIMIT, name, config.backend());
        return RateLimiters.of(
            config,
            backend == null ? this::localLimiter : c -> backend.rateLimiter(c, new Context(c.backend())));
      });
      checkSameSettings(Kind.RATELIMIT, layer);
    }
    SemaphoreBulkhead bulkhead = null;
    if (enabled(Kind.BULKHEAD, definition.bulkhead())) {
      BulkheadConfig.Builder layer = definition.bulkhead();
      bulkhead = bulkheads.computeIfAbsent(layer.name(), name -> {
        created(Kind.BULKHEAD, name, false);
        return new SemaphoreBulkhead(layers.resolve(Kind.BULKHEAD, layer, BulkheadConfig.builder(name)).build(), time, events);
      });
      checkSameSettings(Kind.BULKHEAD, layer);
    }
    TimeoutPolicy timeout = null;
    if (enabled(Kind.TIMEOUT, definition.timeout())) {
      TimeoutConfig config = layers.resolve(Kind.TIMEOUT, definition.timeout(), TimeoutConfig.builder(definition.timeout().name())).build();
      remember(Kind.TIMEOUT, config.name());
      timeout = new TimeoutPolicy(config, definition.callName(), scheduler.get(), abandonedWorkers, events);
    }
    FallbackPolicy fallback = null;
    if (enabled(Kind.FALLBACK, definition.fallback())) {
      FallbackConfig config = layers.resolve(Kind.FALLBACK, definition.fallback(), FallbackConfig.builder(definition.fallback().name())).build();
      remember(Kind.FALLBACK, config.name());
      fallback = new FallbackPolicy(config, definition.callName(), events);
    }
    return new CallGuard(events, definition.callName(), retry, breaker, limiter, bulkhead, timeout, fallback, scheduler);
  }

  /**
   * @return the backend an instance's {@code backend} setting names, or null for local state
   * @throws ConfigurationException when no backend of that name was given to the registry
   */
  private Backend backend(Kind kind, String name, String backendName) {
    if (backendName.equals(Backend.LOCAL)) {
      return null;
    }
    Backend backend = backends.get(backendName);
    if (backend == null) {
      java.util.List<String> known = new java.util.ArrayList<>(new TreeSet<>(backends.keySet()));
      known.add(0, Backend.LOCAL);
      throw new ConfigurationException(
          kind, name, "backend", backendName,
          "one of " + known + " (give a backend to Registry.builder().backend(name, backend))");
    }
    return backend;
  }

  private CircuitBreakerInstance localBreaker(CircuitBreakerConfig config) {
    return new DefaultCircuitBreaker(config, time, events);
  }

  private RateLimiterInstance localLimiter(RateLimitConfig config) {
    return new TokenBucketRateLimiter(config, time, events);
  }

  /** What a backend gets: this registry's clock, scheduler, events and local instances. */
  private final class Context implements BackendContext {
    private final String backendName;

    Context(String backendName) {
      this.backendName = backendName;
    }

    @Override
    public String backendName() {
      return backendName;
    }

    @Override
    public TimeSource time() {
      return time;
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return scheduler.get();
    }

    @Override
    public EventSink events() {
      return events;
    }

    @Override
    public RateLimiterInstance localRateLimiter(RateLimitConfig config) {
      return localLimiter(config);
    }

    @Override
    public CircuitBreakerInstance localCircuitBreaker(CircuitBreakerConfig config) {
      return localBreaker(config);
    }
  }

  /** A pattern takes part when the call declares it and configuration has not switched it off. */
  private boolean enabled(Kind kind, ConfigBuilder<?> layer) {
    if (layer == null) {
      return false;
    }
    if (layers.enabled(kind, layer.name())) {
      return true;
    }
    switchedOff.computeIfAbsent(kind, k -> ConcurrentHashMap.newKeySet()).add(layer.name());
    return false;
  }

  /**
   * @param kind a kind
   * @param name an instance name
   * @return whether configuration switched that instance off (so it was never created)
   */
  public boolean switchedOff(Kind kind, String name) {
    return switchedOff.getOrDefault(kind, Set.of()).contains(name);
  }

  /**
   * @param name a retry budget's name
   * @return the shared budget, created with its configured settings on first use
   */
  public RetryBudget budget(String name) {
    return budgets.computeIfAbsent(name, n -> {
      remember(Kind.RETRYBUDGET, n);
      created(Kind.RETRYBUDGET, n, false);
      return layers.retryBudget(n, time);
    });
  }

  /**
   * Two sites that give one system-scoped name different annotation values is a mistake, unless
   * configuration outside the annotations settles the value.
   */
  private void checkSameSettings(Kind kind, ConfigBuilder<?> layer) {
    remember(kind, layer.name());
    Map<String, Object> values = comparable(layer.explicitValues());
    Map<String, Object> first = annotationValues.putIfAbsent(kind.key() + "/" + layer.name(), values);
    if (first == null || first.equals(values)) {
      return;
    }
    for (Map.Entry<String, Object> entry : values.entrySet()) {
      String attribute = entry.getKey();
      if (!Objects.equals(first.get(attribute), entry.getValue()) && !layers.setsOutsideAnnotations(kind, layer.name(), attribute)) {
        throw new ConfigurationException(
            kind.description() + " '" + layer.name() + "' is annotated with " + attribute + " = "
                + describe(first.get(attribute)) + " at one site and " + describe(entry.getValue())
                + " at another; give both sites the same value, or set it once outside the annotations ("
                + "Registry.builder(), environment or system property)");
      }
    }
  }

  /** Predicates are compared by class: two generated wrappers hold different instances of one. */
  private static Map<String, Object> comparable(Map<String, Object> values) {
    Map<String, Object> copy = new LinkedHashMap<>();
    values.forEach((key, value) -> copy.put(key, value instanceof Predicate ? value.getClass() : value));
    return copy;
  }

  private static String describe(Object value) {
    if (value instanceof Duration) {
      return dev.brace.runtime.Durations.describe((Duration) value);
    }
    if (value instanceof Class) {
      return ((Class<?>) value).getName();
    }
    return String.valueOf(value);
  }

  /**
   * Tells listeners (metrics, to register gauges) that a shared instance now exists; a keyed
   * family's members come and go with their keys, so it is reported once, as the family.
   */
  private void created(Kind kind, String name, boolean keyed) {
    if (events.enabled("instance.created")) {
      events.emit("instance.created", name, "kind", kind.key(), "keyed", keyed);
    }
  }

  private void remember(Kind kind, String name) {
    names.computeIfAbsent(kind, k -> ConcurrentHashMap.newKeySet()).add(name);
  }

  /** @return every instance created, by kind key */
  public Map<String, Set<String>> names() {
    Map<String, Set<String>> copy = new LinkedHashMap<>();
    for (Kind kind : Kind.values()) {
      Set<String> known = names.get(kind);
      if (known != null) {
        copy.put(kind.key(), Collections.unmodifiableSet(new TreeSet<>(known)));
      }
    }
    return Collections.unmodifiableMap(copy);
  }

  /** @return the breaker named so (a keyed one as {@code name[key]}), or null */
  public CircuitBreakerInstance circuitBreaker(String name) {
    CircuitBreakers family = breakers.get(name);
    if (family != null && !family.isKeyed()) {
      return family.forKey(null);
    }
    return keyedMember(breakers, name, CircuitBreakers::keyedInstances);
  }

  /** @return the limiter named so (a keyed one as {@code name[key]}), or null */
  public RateLimiterInstance rateLimiter(String name) {
    RateLimiters family = limiters.get(name);
    if (family != null && !family.isKeyed()) {
      return family.forKey(null);
    }
    return keyedMember(limiters, name, RateLimiters::keyedInstances);
  }

  /** @return the bulkhead named so, or null */
  public SemaphoreBulkhead bulkhead(String name) {
    return bulkheads.get(name);
  }

  private static <F, T> T keyedMember(
      Map<String, F> families, String name, java.util.function.Function<F, KeyedInstances<T>> keyed) {
    int open = name.indexOf('[');
    if (open < 0 || !name.endsWith("]")) {
      return null;
    }
    F family = families.get(name.substring(0, open));
    if (family == null || keyed.apply(family) == null) {
      return null;
    }
    return keyed.apply(family).snapshot().get(name.substring(open + 1, name.length() - 1));
  }
}
