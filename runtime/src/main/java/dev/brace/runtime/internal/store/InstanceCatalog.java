package dev.brace.runtime.internal.store;

import dev.brace.runtime.Description;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryBudgetConfig;
import dev.brace.runtime.internal.attempt.KeyedFamily;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.config.ExplainedConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.RetryBudget;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.metrics.MetricsListener;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.support.CallDefinition;
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
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a registry holds now: the layers of configuration above the call sites, the instances
 * shared by name (breakers, limiters, bulkheads, retry budgets), the settings each call-scoped
 * name last resolved to, the names configuration switched off, and every call resolved. It answers
 * the registry's lookups, {@link #names()} and {@link #describe()}.
 */
final class InstanceCatalog implements InstanceSource {
  /** Where a registry's descriptions are logged: the logger of what concerns Brace as a whole. */
  private static final Logger DESCRIPTIONS = LoggerFactory.getLogger("dev.brace");

  private final EventBus events;
  private volatile ConfigLayers layers;

  private final SharedInstances<KeyedFamily<CircuitBreakerInstance>> breakers;
  private final SharedInstances<KeyedFamily<RateLimiterInstance>> limiters;
  private final SharedInstances<SemaphoreBulkhead> bulkheads =
      new SharedInstances<>(Kind.BULKHEAD, SharedInstances.reshaper(
          (bulkhead, config) -> bulkhead.reconfigure((BulkheadConfig) config)));
  private final SharedInstances<RetryBudget> budgets =
      new SharedInstances<>(Kind.RETRYBUDGET, SharedInstances.reshaper((budget, config) -> {
        RetryBudgetConfig settings = (RetryBudgetConfig) config;
        budget.reconfigure(settings.percentCanRetry(), settings.minRetriesPerSecond(), settings.ttl());
      }));
  /**
   * Call-scoped instances (retries, timeouts, fallbacks) are made per call; the settings each name
   * last resolved to, with their sources, and the sites that use it are kept, for {@link #names()},
   * {@link #describe()} and a reconfiguration's {@code config.changed} events.
   */
  private final Map<Kind, Map<String, CallScoped>> callScoped = new ConcurrentHashMap<>();
  /** Every call resolved, by call name, with its patterns in order, as it was last resolved. */
  private final Map<String, Description.Call> calls = new ConcurrentHashMap<>();
  private final Map<Kind, Set<String>> switchedOff = new ConcurrentHashMap<>();
  /** The fault injections calls run with now. */
  private final ActiveInjections injections = new ActiveInjections();

  /**
   * @param layers configuration above the call sites
   * @param backends makes a breaker or limiter family anew, where its new settings say, when a
   *     reconfiguration changes them
   * @param events the event boundary, told of each shared instance created
   */
  InstanceCatalog(ConfigLayers layers, Backends backends, EventBus events) {
    this.layers = Objects.requireNonNull(layers, "layers");
    this.events = Objects.requireNonNull(events, "events");
    injections.warnIfSwitchedOff(layers);
    this.breakers = new SharedInstances<>(Kind.CIRCUITBREAKER, new FamilyReshaper<>(
        CircuitBreakerInstance::reconfigurable,
        (breaker, config) -> breaker.reconfigure((CircuitBreakerConfig) config),
        (config, member) -> ((CircuitBreakerConfig) config).toBuilder(member).build(),
        config -> {
          Function<CircuitBreakerConfig, CircuitBreakerInstance> make = backends.breakerMaker((CircuitBreakerConfig) config);
          return member -> make.apply((CircuitBreakerConfig) member);
        },
        config -> ((CircuitBreakerConfig) config).maxKeys()));
    this.limiters = new SharedInstances<>(Kind.RATELIMIT, new FamilyReshaper<>(
        RateLimiterInstance::reconfigurable,
        (limiter, config) -> limiter.reconfigure((RateLimitConfig) config),
        (config, member) -> ((RateLimitConfig) config).toBuilder(member).build(),
        config -> {
          Function<RateLimitConfig, RateLimiterInstance> make = backends.limiterMaker((RateLimitConfig) config);
          return member -> make.apply((RateLimitConfig) member);
        },
        config -> ((RateLimitConfig) config).maxKeys()));
  }

  /** @return the configuration calls are resolved under now */
  ConfigLayers layers() {
    return layers;
  }

  /**
   * Takes a reconfiguration's layers, once its plan is committed; which names are switched off is
   * recorded again as its calls are remembered.
   */
  void adopt(ConfigLayers next) {
    layers = next;
    switchedOff.clear();
    injections.warnIfSwitchedOff(next);
  }

  @Override
  public KeyedFamily<CircuitBreakerInstance> obtainBreakers(ConfigBuilder<?> written, ExplainedConfig explained,
      String site, Function<InstanceConfig, KeyedFamily<CircuitBreakerInstance>> create) {
    return breakers.obtain(written, explained, site, create, () -> created(explained.config()));
  }

  @Override
  public KeyedFamily<RateLimiterInstance> obtainLimiters(ConfigBuilder<?> written, ExplainedConfig explained,
      String site, Function<InstanceConfig, KeyedFamily<RateLimiterInstance>> create) {
    return limiters.obtain(written, explained, site, create, () -> created(explained.config()));
  }

  @Override
  public SemaphoreBulkhead obtainBulkhead(ConfigBuilder<?> written, ExplainedConfig explained, String site,
      Function<InstanceConfig, SemaphoreBulkhead> create) {
    return bulkheads.obtain(written, explained, site, create, () -> created(explained.config()));
  }

  @Override
  public RetryBudget obtainBudget(ConfigBuilder<?> written, ExplainedConfig explained, String site,
      Function<InstanceConfig, RetryBudget> create) {
    return budgets.obtain(written, explained, site, create, () -> created(explained.config()));
  }

  /**
   * Plans every shared instance's settings under new layers ({@link SharedInstances#plan});
   * nothing changes before {@link Plan#commit}.
   *
   * @param next the new layers
   * @param on whether Brace is switched on under them
   * @param problems collects one line per refused setting
   */
  Plan plan(ConfigLayers next, boolean on, Set<String> problems) {
    return new Plan(next, on, problems);
  }

  /** The planned settings of every shared instance; committed together. */
  final class Plan implements InstanceSource {
    private final SharedInstances<KeyedFamily<CircuitBreakerInstance>>.Plan breakers;
    private final SharedInstances<KeyedFamily<RateLimiterInstance>>.Plan limiters;
    private final SharedInstances<SemaphoreBulkhead>.Plan bulkheads;
    private final SharedInstances<RetryBudget>.Plan budgets;

    private Plan(ConfigLayers next, boolean on, Set<String> problems) {
      List<String> refused = new ArrayList<>();
      this.breakers = InstanceCatalog.this.breakers.plan(settings(next, on), refused);
      this.limiters = InstanceCatalog.this.limiters.plan(settings(next, on), refused);
      this.bulkheads = InstanceCatalog.this.bulkheads.plan(settings(next, on), refused);
      this.budgets = InstanceCatalog.this.budgets.plan(settings(next, on), refused);
      problems.addAll(refused);
    }

    /**
     * An instance switched off keeps the settings it had; it is not used until it is switched on
     * again. The new settings carry their sources, so {@link #describe()} follows a reconfiguration.
     */
    private BiFunction<ConfigBuilder<?>, String, ExplainedConfig> settings(ConfigLayers next, boolean on) {
      return (written, site) -> on && next.enabled(written.kind(), written.name()) ? next.explain(written, site) : null;
    }

    @Override
    public KeyedFamily<CircuitBreakerInstance> obtainBreakers(ConfigBuilder<?> written, ExplainedConfig explained,
        String site, Function<InstanceConfig, KeyedFamily<CircuitBreakerInstance>> create) {
      return breakers.obtain(written, explained, site, create);
    }

    @Override
    public KeyedFamily<RateLimiterInstance> obtainLimiters(ConfigBuilder<?> written, ExplainedConfig explained,
        String site, Function<InstanceConfig, KeyedFamily<RateLimiterInstance>> create) {
      return limiters.obtain(written, explained, site, create);
    }

    @Override
    public SemaphoreBulkhead obtainBulkhead(ConfigBuilder<?> written, ExplainedConfig explained, String site,
        Function<InstanceConfig, SemaphoreBulkhead> create) {
      return bulkheads.obtain(written, explained, site, create);
    }

    @Override
    public RetryBudget obtainBudget(ConfigBuilder<?> written, ExplainedConfig explained, String site,
        Function<InstanceConfig, RetryBudget> create) {
      return budgets.obtain(written, explained, site, create);
    }

    /** Each shared instance takes its planned settings in place; those made while planning join the registry. */
    void commit() {
      breakers.commit(InstanceCatalog.this::created);
      limiters.commit(InstanceCatalog.this::created);
      bulkheads.commit(InstanceCatalog.this::created);
      budgets.commit(InstanceCatalog.this::created);
    }
  }

  /**
   * Tells metrics listeners that a shared instance now exists, so they can register gauges; a
   * keyed family's members come and go with their keys, so it is reported once, as the family.
   */
  private void created(InstanceConfig config) {
    Object key = config.values().get("key");
    boolean keyed = key != null && !((String) key).isEmpty();
    MetricsListener bound = events.metrics();
    if (bound != null) {
      bound.instanceCreated(config.kind(), config.name(), keyed);
    }
    if (events.enabled(EventKind.INSTANCE_CREATED)) {
      events.emit(EventKind.INSTANCE_CREATED, config.name(), "kind", config.kind().key(), "keyed", keyed);
    }
  }

  /**
   * Records, once a call is kept, what its call-scoped patterns run on (with where each value came
   * from, and the site) and what is switched off, then the call's description.
   */
  void remember(Resolution resolution) {
    CallDefinition definition = resolution.definition;
    resolution.configs.forEach((kind, explained) -> {
      if (!kind.isShared()) {
        callScoped.computeIfAbsent(kind, k -> new ConcurrentHashMap<>())
            .computeIfAbsent(explained.config().name(), name -> new CallScoped(explained))
            .resolved(explained, definition.site());
      }
    });
    resolution.off.forEach((kind, name) -> switchedOff.computeIfAbsent(kind, k -> ConcurrentHashMap.newKeySet()).add(name));
    injections.record(definition, resolution.configs.get(Kind.CHAOS), resolution.faults);
    described(definition, resolution.configs.keySet());
  }

  /** A call-scoped instance: its settings as last resolved, with their sources, and every site that uses it. */
  private static final class CallScoped {
    volatile ExplainedConfig explained;
    final Set<String> sites = ConcurrentHashMap.newKeySet();

    CallScoped(ExplainedConfig explained) {
      this.explained = explained;
    }

    void resolved(ExplainedConfig explained, String site) {
      this.explained = explained;
      sites.add(site);
    }
  }

  /**
   * Records a call's patterns in order, each marked whether it takes part (again after a
   * reconfiguration, which may switch one on or off); the first time a call name is resolved, its
   * description is logged at DEBUG, so a log shows where every value a call runs with came from.
   */
  private void described(CallDefinition definition, Set<Kind> enabled) {
    List<Description.Pattern> patterns = new ArrayList<>();
    definition.patterns().forEach((kind, site) -> patterns.add(new Description.Pattern(kind, site.name(), enabled.contains(kind))));
    Description.Call call = new Description.Call(definition.callName(), definition.site(), definition.notIdempotent(), patterns);
    if (calls.put(definition.callName(), call) == null && DESCRIPTIONS.isDebugEnabled()) {
      describe().call(definition.callName()).ifPresent(description -> DESCRIPTIONS.debug("{}", description));
    }
  }

  /** What a reconfiguration is told of each instance: its kind, its name and the settings it runs on. */
  interface InstanceSettings {
    void accept(Kind kind, String name, InstanceConfig settings);
  }

  /** Tells {@code action} of every instance created: the shared ones in call order, then the call-scoped ones. */
  void forEachInstance(InstanceSettings action) {
    shared(Kind.CIRCUITBREAKER, breakers, action);
    shared(Kind.RATELIMIT, limiters, action);
    shared(Kind.BULKHEAD, bulkheads, action);
    shared(Kind.RETRYBUDGET, budgets, action);
    injections.forEach(action);
    callScoped.forEach((kind, byName) -> byName.forEach((name, scoped) -> action.accept(kind, name, scoped.explained.config())));
  }

  private static void shared(Kind kind, SharedInstances<?> instances, InstanceSettings action) {
    instances.all().keySet().forEach(name -> action.accept(kind, name, instances.config(name)));
  }

  /** @return the name of every call resolved */
  Set<String> callNames() {
    return Set.copyOf(calls.keySet());
  }

  /** Tells {@code action} of every name configuration switched off, by kind. */
  void forEachSwitchedOff(BiConsumer<Kind, Set<String>> action) {
    switchedOff.forEach(action);
  }

  /** Tells {@code action} of every call-scoped name resolved, by kind. */
  void forEachCallScoped(BiConsumer<Kind, Set<String>> action) {
    callScoped.forEach((kind, byName) -> action.accept(kind, byName.keySet()));
  }

  /**
   * @param kind a kind
   * @param name an instance name
   * @return whether configuration switched that instance off (so it was never created)
   */
  boolean switchedOff(Kind kind, String name) {
    return switchedOff.getOrDefault(kind, Set.of()).contains(name);
  }

  /**
   * @return every instance created, with each effective setting and the layer that set it, and
   *     every call resolved, with its patterns in order
   */
  Description describe() {
    List<Description.Instance> instances = new ArrayList<>();
    callScoped.values().forEach(byName -> byName.values().forEach(
        scoped -> instances.add(scoped.explained.describe(new ArrayList<>(new TreeSet<>(scoped.sites))))));
    instances.addAll(breakers.describe());
    instances.addAll(limiters.describe());
    instances.addAll(bulkheads.describe());
    instances.addAll(budgets.describe());
    instances.addAll(injections.describe());
    return new Description(layers.globallyEnabled(), instances, new ArrayList<>(calls.values()));
  }

  /**
   * @return every instance created, by kind key, sorted; a keyed family is listed by its name and
   *     by each member it holds now, {@code name[key]}
   */
  Map<String, Set<String>> names() {
    Map<Kind, Set<String>> byKind = new EnumMap<>(Kind.class);
    callScoped.forEach((kind, names) -> byKind.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(names.keySet()));
    familyNames(Kind.CIRCUITBREAKER, breakers.all(), byKind);
    familyNames(Kind.RATELIMIT, limiters.all(), byKind);
    byKind.computeIfAbsent(Kind.BULKHEAD, k -> new TreeSet<>()).addAll(bulkheads.all().keySet());
    byKind.computeIfAbsent(Kind.RETRYBUDGET, k -> new TreeSet<>()).addAll(budgets.all().keySet());
    byKind.computeIfAbsent(Kind.CHAOS, k -> new TreeSet<>()).addAll(injections.names());
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
  CircuitBreakerInstance circuitBreaker(String name) {
    return lookup(breakers, name);
  }

  /** @return the limiter named so (a keyed one as {@code name[key]}), or null */
  RateLimiterInstance rateLimiter(String name) {
    return lookup(limiters, name);
  }

  /** @return the bulkhead named so, or null */
  SemaphoreBulkhead bulkhead(String name) {
    return bulkheads.get(name);
  }

  /** @return the retry budget named so, or null */
  RetryBudget retryBudget(String name) {
    return budgets.get(name);
  }

  /**
   * @param kind a kind
   * @param name an instance's name (a keyed family's, without a key)
   * @return the settings it runs on now, or null when this registry has none of that name
   */
  InstanceConfig settings(Kind kind, String name) {
    switch (kind) {
      case CIRCUITBREAKER:
        return breakers.config(name);
      case RATELIMIT:
        return limiters.config(name);
      case BULKHEAD:
        return bulkheads.config(name);
      case RETRYBUDGET:
        return budgets.config(name);
      case CHAOS:
        return injections.config(name);
      default:
        CallScoped scoped = callScoped.getOrDefault(kind, Map.of()).get(name);
        return scoped == null ? null : scoped.explained.config();
    }
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
}
