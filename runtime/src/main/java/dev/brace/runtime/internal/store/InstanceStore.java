package dev.brace.runtime.internal.store;

import dev.brace.runtime.Backend;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryBudgetConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DefaultCircuitBreaker;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.internal.policy.RetryBudget;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.Throttling;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.internal.sequence.CallSequence;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.EventSink;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a {@code Registry} holds: the shared, named instances, the layers of configuration above
 * the call sites, and the clock, scheduler and event bus every policy uses. It resolves a {@link
 * CallDefinition} into a {@link CallSequence}: each pattern's site values with every outer layer
 * laid over them, checked against what the site fixed at compile time, and each shared instance
 * created on first use (locally, or in the backend its settings name) and shared afterwards.
 */
public final class InstanceStore {
  /** {@code @Retry(maxRetryAfter)}'s default: what caps an adaptive limiter's block when the call has no retry. */
  private static final java.time.Duration DEFAULT_MAX_RETRY_AFTER = RetryConfig.builder("default").build().maxRetryAfter();
  private final TimeSource time;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final Executor abandonedWorkers;
  private final EventBus events;
  private final ConfigLayers layers;
  private final Map<String, Backend> backends;

  private final SharedInstances<KeyedFamily<CircuitBreakerInstance>> breakers =
      new SharedInstances<>(Kind.CIRCUITBREAKER);
  private final SharedInstances<KeyedFamily<RateLimiterInstance>> limiters = new SharedInstances<>(Kind.RATELIMIT);
  private final SharedInstances<SemaphoreBulkhead> bulkheads = new SharedInstances<>(Kind.BULKHEAD);
  private final SharedInstances<RetryBudget> budgets = new SharedInstances<>(Kind.RETRYBUDGET);
  /** Call-scoped instances (retries, timeouts, fallbacks) are made per call; only their names are kept. */
  private final Map<Kind, Set<String>> callScoped = new ConcurrentHashMap<>();
  private final Map<Kind, Set<String>> switchedOff = new ConcurrentHashMap<>();

  /**
   * @param time the clock of every policy
   * @param scheduler the scheduler for deadlines and async waits, created on first use
   * @param abandonedWorkers runs the attempts of {@code ABANDON} timeouts, each on a thread of its own
   * @param events the event boundary
   * @param layers configuration above the call sites
   * @param backends where instances whose {@code backend} names one keep their state, by name
   */
  public InstanceStore(
      TimeSource time,
      Supplier<ScheduledExecutorService> scheduler,
      Executor abandonedWorkers,
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
   * Resolves every pattern of a call; shared instances are created on first use and shared
   * afterwards. With Brace switched off the call passes straight through.
   *
   * @param definition the call as its site declares it
   * @return the call's sequence
   * @throws ConfigurationException when a setting is invalid, conflicts with an earlier site, or
   *     contradicts what the site fixed at compile time (its keys, its fallback's parameter)
   */
  public CallSequence resolve(CallDefinition definition) {
    Objects.requireNonNull(definition, "definition");
    if (!layers.globallyEnabled()) {
      return new CallSequence(definition.callName(), time, events, scheduler, CallSequence.Patterns.none());
    }
    CallSequence.Patterns patterns = new CallSequence.Patterns().criticality(definition.criticality());
    // An adaptive limiter's hint is capped by the call's retry, which comes first in call order.
    java.time.Duration maxRetryAfter = DEFAULT_MAX_RETRY_AFTER;
    for (Map.Entry<Kind, ConfigBuilder<?>> pattern : definition.patterns().entrySet()) {
      Kind kind = pattern.getKey();
      ConfigBuilder<?> site = pattern.getValue();
      if (!enabled(kind, site.name())) {
        continue;
      }
      InstanceConfig config = layers.resolve(site);
      switch (kind) {
        case FALLBACK:
          patterns.fallback(fallback((FallbackConfig) config, definition));
          break;
        case RETRY:
          patterns.retry(retry((RetryConfig) config, definition));
          maxRetryAfter = ((RetryConfig) config).maxRetryAfter();
          break;
        case CIRCUITBREAKER:
          checkKey(site, config, definition);
          patterns.breakers(breakers.obtain(config, definition.site(), c -> breakerFamily((CircuitBreakerConfig) c), () -> created(config)));
          break;
        case RATELIMIT:
          checkKey(site, config, definition);
          patterns.limiters(limiters.obtain(config, definition.site(), c -> limiterFamily((RateLimitConfig) c), () -> created(config)));
          if (((RateLimitConfig) config).adaptive()) {
            patterns.throttling(new Throttling((RateLimitConfig) config, maxRetryAfter));
          }
          break;
        case BULKHEAD:
          patterns.bulkhead(bulkheads.obtain(config, definition.site(), c -> new SemaphoreBulkhead((BulkheadConfig) c, time, scheduler, events), () -> created(config)));
          break;
        case TIMEOUT:
          remember(kind, config.name());
          patterns.timeout(new TimeoutPolicy((TimeoutConfig) config, definition.callName(), time, scheduler.get(), abandonedWorkers, events));
          break;
        default:
          throw new IllegalStateException("a call has no pattern of kind " + kind);
      }
    }
    return new CallSequence(definition.callName(), time, events, scheduler, patterns);
  }

  private RetryPolicy retry(RetryConfig config, CallDefinition definition) {
    remember(Kind.RETRY, config.name());
    String budgetName = config.budget();
    RetryBudget budget = null;
    if (!budgetName.isEmpty() && enabled(Kind.RETRYBUDGET, budgetName)) {
      budget = budget(budgetName, definition.site());
    }
    return new RetryPolicy(config, definition.callName(), time, events, budget);
  }

  private RetryBudget budget(String name, String site) {
    RetryBudgetConfig config = layers.retryBudget(name);
    return budgets.obtain(
        config,
        site,
        c -> new RetryBudget(name, config.percentCanRetry(), config.minRetriesPerSecond(), config.ttl(), time),
        () -> created(config));
  }

  /**
   * Configuration may narrow which failures a fallback answers, never widen them past what its
   * method can take: a failure it could not receive would be a {@code ClassCastException}.
   */
  private FallbackPolicy fallback(FallbackConfig config, CallDefinition definition) {
    remember(Kind.FALLBACK, config.name());
    Class<? extends Throwable> takes = definition.fallbackTakes();
    if (takes != null) {
      for (Class<? extends Throwable> type : config.on()) {
        if (!takes.isAssignableFrom(type)) {
          throw new ConfigurationException(Message.FALLBACK_WIDENED.format(
              definition.site(), definition.fallbackMethod(), takes.getName(), describe(config.on()),
              type.getName(), takes.getName()));
        }
      }
    }
    return new FallbackPolicy(config, definition.callName(), events);
  }

  /**
   * A generated wrapper computes its key from a template fixed at compile time, so configuration
   * can neither make such a site keyed nor change its key. A stack takes its key from the caller
   * with each call, so configuration may make its breaker or limiter keyed.
   */
  private static void checkKey(ConfigBuilder<?> site, InstanceConfig config, CallDefinition definition) {
    if (definition.keysFromCaller()) {
      return;
    }
    Object written = site.explicitValues().get("key");
    String siteKey = written == null ? "" : (String) written;
    String configured = (String) config.values().get("key");
    if (siteKey.equals(configured)) {
      return;
    }
    String instance = configured.isEmpty()
        ? "not keyed (configuration sets key = \"\")"
        : "keyed by configuration (key = \"" + configured + "\")";
    String siteSays = siteKey.isEmpty()
        ? "gives no key"
        : "computes its key from \"" + siteKey + "\"";
    throw new ConfigurationException(Message.KEY_MISMATCH.format(
        config.kind().description(), config.name(), instance, definition.site(), siteSays));
  }

  private KeyedFamily<CircuitBreakerInstance> breakerFamily(CircuitBreakerConfig config) {
    Function<CircuitBreakerConfig, CircuitBreakerInstance> create = breakerMaker(config);
    if (config.key().isEmpty()) {
      return KeyedFamily.of(config.name(), create.apply(config));
    }
    return KeyedFamily.keyed(
        config.name(), config.maxKeys(), member -> create.apply(config.toBuilder(member).build()),
        breaker -> breaker.state() != CircuitState.CLOSED);
  }

  private KeyedFamily<RateLimiterInstance> limiterFamily(RateLimitConfig config) {
    Function<RateLimitConfig, RateLimiterInstance> create = limiterMaker(config);
    if (config.key().isEmpty()) {
      return KeyedFamily.of(config.name(), create.apply(config));
    }
    return KeyedFamily.keyed(
        config.name(), config.maxKeys(), member -> create.apply(config.toBuilder(member).build()),
        RateLimiterInstance::hasWaiters);
  }

  private Function<CircuitBreakerConfig, CircuitBreakerInstance> breakerMaker(CircuitBreakerConfig config) {
    Backend backend = backend(config, config.backend());
    return backend == null
        ? this::localBreaker
        : c -> backend.circuitBreaker(c, new Context(config.backend()));
  }

  private Function<RateLimitConfig, RateLimiterInstance> limiterMaker(RateLimitConfig config) {
    Backend backend = backend(config, config.backend());
    return backend == null
        ? this::localLimiter
        : c -> backend.rateLimiter(c, new Context(config.backend()));
  }

  /**
   * @return the backend an instance's {@code backend} setting names, or null for local state
   * @throws ConfigurationException when no backend of that name was given to the registry
   */
  private Backend backend(InstanceConfig config, String backendName) {
    if (backendName.equals(Backend.LOCAL)) {
      return null;
    }
    Backend backend = backends.get(backendName);
    if (backend == null) {
      List<String> known = new ArrayList<>(new TreeSet<>(backends.keySet()));
      known.add(0, Backend.LOCAL);
      throw new ConfigurationException(
          Message.UNKNOWN_BACKEND.format(config.kind().description(), config.name(), backendName, known));
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

  /** A pattern takes part when configuration has not switched its instance off. */
  private boolean enabled(Kind kind, String name) {
    if (layers.enabled(kind, name)) {
      return true;
    }
    switchedOff.computeIfAbsent(kind, k -> ConcurrentHashMap.newKeySet()).add(name);
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
   * Tells metrics listeners that a shared instance now exists, so they can register gauges; a
   * keyed family's members come and go with their keys, so it is reported once, as the family.
   */
  private void created(InstanceConfig config) {
    if (events.enabled(EventKind.INSTANCE_CREATED)) {
      Object key = config.values().get("key");
      events.emit(EventKind.INSTANCE_CREATED, config.name(), "kind", config.kind().key(),
          "keyed", key != null && !((String) key).isEmpty());
    }
  }

  private void remember(Kind kind, String name) {
    callScoped.computeIfAbsent(kind, k -> ConcurrentHashMap.newKeySet()).add(name);
  }

  /**
   * @return every instance created, by kind key, sorted; a keyed family is listed by its name and
   *     by each member it holds now, {@code name[key]}
   */
  public Map<String, Set<String>> names() {
    Map<Kind, Set<String>> byKind = new EnumMap<>(Kind.class);
    callScoped.forEach((kind, names) -> byKind.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(names));
    familyNames(Kind.CIRCUITBREAKER, breakers.all(), byKind);
    familyNames(Kind.RATELIMIT, limiters.all(), byKind);
    byKind.computeIfAbsent(Kind.BULKHEAD, k -> new TreeSet<>()).addAll(bulkheads.all().keySet());
    byKind.computeIfAbsent(Kind.RETRYBUDGET, k -> new TreeSet<>()).addAll(budgets.all().keySet());
    Map<String, Set<String>> copy = new LinkedHashMap<>();
    byKind.forEach((kind, names) -> {
      if (!names.isEmpty()) {
        copy.put(kind.key(), Collections.unmodifiableSet(names));
      }
    });
    return Collections.unmodifiableMap(copy);
  }

  private static <T> void familyNames(Kind kind, Map<String, KeyedFamily<T>> families, Map<Kind, Set<String>> byKind) {
    Set<String> names = byKind.computeIfAbsent(kind, k -> new TreeSet<>());
    families.forEach((name, family) -> {
      names.add(name);
      family.members().keySet().forEach(key -> names.add(name + "[" + key + "]"));
    });
  }

  /** @return the breaker named so (a keyed one as {@code name[key]}), or null */
  public CircuitBreakerInstance circuitBreaker(String name) {
    return lookup(breakers, name);
  }

  /** @return the limiter named so (a keyed one as {@code name[key]}), or null */
  public RateLimiterInstance rateLimiter(String name) {
    return lookup(limiters, name);
  }

  /** @return the bulkhead named so, or null */
  public SemaphoreBulkhead bulkhead(String name) {
    return bulkheads.get(name);
  }

  private static <T> T lookup(SharedInstances<KeyedFamily<T>> families, String name) {
    KeyedFamily<T> family = families.get(name);
    if (family != null && !family.isKeyed()) {
      return family.single();
    }
    int open = name.indexOf('[');
    if (open < 0 || !name.endsWith("]")) {
      return null;
    }
    KeyedFamily<T> keyed = families.get(name.substring(0, open));
    return keyed == null ? null : keyed.members().get(name.substring(open + 1, name.length() - 1));
  }

  private static String describe(List<Class<? extends Throwable>> types) {
    List<String> names = new ArrayList<>();
    types.forEach(type -> names.add(type.getName()));
    return "{" + String.join(", ", names) + "}";
  }
}
