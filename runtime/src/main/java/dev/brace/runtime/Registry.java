package dev.brace.runtime;

import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.ChaosConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.DeadlineConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryBudgetConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.internal.LazyScheduler;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.WorkerThreads;
import dev.brace.runtime.internal.config.ConfigAudit;
import dev.brace.runtime.internal.config.ConfigKeys;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.config.ConfigValues;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.store.InstanceStore;
import dev.brace.runtime.metrics.MetricsListener;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import java.time.Clock;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * The named instances of an application: circuit breakers, rate limiters, bulkheads and retry
 * budgets are created on first use and shared by every wrapper (and {@code Stack}) that names
 * them; call-scoped retries, timeouts and fallbacks are resolved per call. A registry also holds
 * the clock, the scheduler and the event listeners.
 *
 * <p>Most applications use {@link #defaultRegistry()}. Tests build their own with a {@link
 * ManualTimeSource}.
 */
public final class Registry {
  private static final class DefaultHolder {
    static final Registry INSTANCE = builder().build();
  }

  private final InstanceStore store;
  private final boolean strictConfiguration;
  private final Map<String, Backend> backends;

  private Registry(InstanceStore store, boolean strictConfiguration, Map<String, Backend> backends) {
    this.store = store;
    this.strictConfiguration = strictConfiguration;
    this.backends = backends;
  }

  /** @return the process-wide registry, on the system clock */
  public static Registry defaultRegistry() {
    return DefaultHolder.INSTANCE;
  }

  /** @return a builder for a registry of one's own */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Resolves the policies of one call. Generated wrappers and {@code Stack} call this once, when
   * they are created; it is not meant for application code.
   *
   * @param definition the call as its site declares it
   * @return the resolved call that the site hands its delegate calls to
   * @throws ConfigurationException when a setting is invalid, conflicts with an earlier site, or
   *     contradicts what the site fixed at compile time
   * @throws NullPointerException when {@code definition} is null
   */
  public ResilientCall resolve(CallDefinition definition) {
    return store.resolve(definition);
  }

  /**
   * Reads new environment variables and system properties (the two outer layers of configuration)
   * and applies what changed to the instances and calls this registry has made, without losing
   * their state: a circuit breaker keeps its state, its cooldown and its counts (the new thresholds
   * apply from its next outcome); a rate limiter keeps its tokens, capped at a new burst; a
   * bulkhead keeps its calls in flight (a lower limit applies to admissions); retries, timeouts
   * and fallbacks apply from each call that starts afterwards, and so does switching an instance,
   * or Brace, on or off ({@code _ENABLED}, {@code BRACE_ENABLED}). A call that has started finishes
   * on the settings it started with.
   *
   * <p>All or nothing: every setting is checked first, and one that is refused refuses the whole
   * reconfiguration. Each changed property of each instance is reported as a {@code config.changed}
   * event. Keys that configure nothing are reported as when the registry was built (a warning, or
   * a refusal with {@link Builder#strictConfiguration()}). Programmatic settings stay as built.
   *
   * @param environment the {@code BRACE_…} variables to read from now on (other keys are ignored)
   * @param systemProperties the {@code brace.…} properties to read from now on (other keys are ignored)
   * @throws ConfigurationException naming every refused setting, one per line; nothing has changed
   *     then
   * @throws NullPointerException when an argument is null
   */
  public void reconfigure(Map<String, String> environment, Map<String, String> systemProperties) {
    store.reconfigure(
        Map.copyOf(Objects.requireNonNull(environment, "environment")),
        Map.copyOf(Objects.requireNonNull(systemProperties, "systemProperties")),
        strictConfiguration);
  }

  /**
   * The settings an instance runs on now, as text: what the annotations, programmatic settings,
   * environment and system properties add up to, defaults included.
   *
   * @param kind a kind as {@link #names()} gives it ({@code circuitbreaker}, {@code retry}, …)
   * @param name an instance's name as {@link #names()} lists it (a keyed family by its name alone)
   * @return by property ({@code failureRate}, {@code resetTimeout}, …), its value as configuration
   *     writes it ({@code 0.5}, {@code 30s}, {@code {java.io.IOException}})
   * @throws IllegalArgumentException when there is no such kind, or this registry has no such instance
   * @throws NullPointerException when an argument is null
   */
  public Map<String, String> settings(String kind, String name) {
    Objects.requireNonNull(name, "name");
    Kind found = null;
    for (Kind candidate : Kind.values()) {
      if (candidate.key().equals(Objects.requireNonNull(kind, "kind"))) {
        found = candidate;
      }
    }
    if (found == null) {
      throw new IllegalArgumentException(Message.UNKNOWN_INSTANCE.format("kind", kind, names().keySet()));
    }
    InstanceConfig config = found(store.settings(found, name), found, name);
    Map<String, String> settings = new LinkedHashMap<>();
    Kind configured = found;
    config.values().forEach((attribute, value) -> settings.put(configured.property(attribute), ConfigValues.plain(value)));
    return Collections.unmodifiableMap(settings);
  }

  /**
   * @param name a circuit breaker's name ({@code name[key]} for one of a keyed family)
   * @return the breaker
   * @throws IllegalArgumentException when this registry has created none of that name
   */
  public CircuitBreakerHandle circuitBreaker(String name) {
    return found(store.circuitBreaker(Objects.requireNonNull(name, "name")), Kind.CIRCUITBREAKER, name);
  }

  /**
   * @param name a rate limiter's name ({@code name[key]} for one of a keyed family)
   * @return the limiter
   * @throws IllegalArgumentException when this registry has created none of that name
   */
  public RateLimiterHandle rateLimiter(String name) {
    return found(store.rateLimiter(Objects.requireNonNull(name, "name")), Kind.RATELIMIT, name);
  }

  /**
   * @param name a bulkhead's name
   * @return the bulkhead
   * @throws IllegalArgumentException when this registry has created none of that name
   */
  public BulkheadHandle bulkhead(String name) {
    return found(store.bulkhead(Objects.requireNonNull(name, "name")), Kind.BULKHEAD, name);
  }

  /**
   * @param name a retry budget's name
   * @return the budget
   * @throws IllegalArgumentException when this registry has created none of that name
   */
  public RetryBudgetHandle retryBudget(String name) {
    return found(store.retryBudget(Objects.requireNonNull(name, "name")), Kind.RETRYBUDGET, name);
  }

  /**
   * Whether a metrics binding should tag each member of a keyed family with its key: the system
   * property {@code brace.metrics.per-key}, else the variable {@code BRACE_METRICS_PER_KEY}, as this
   * registry read them; false by default, so keys taken from user input cannot multiply series.
   *
   * @return whether to report keyed instances one series per key
   */
  public boolean metricsPerKey() {
    return store.metricsPerKey();
  }

  private <T> T found(T instance, Kind kind, String name) {
    if (instance == null && store.switchedOff(kind, name)) {
      throw new IllegalArgumentException(Message.SWITCHED_OFF.format(
          kind.description(), name, ConfigKeys.environment(kind, name, "enabled"),
          ConfigKeys.systemProperty(kind, name, "enabled")));
    }
    if (instance == null) {
      throw new IllegalArgumentException(Message.UNKNOWN_INSTANCE.format(
          kind.description(), name, store.names().getOrDefault(kind.key(), Set.of())));
    }
    return instance;
  }

  /**
   * @return the backends this registry was built with ({@link Builder#backend}), by the name
   *     settings use, in the order they were given; for health checks and metrics
   *     ({@link Backend#status()})
   */
  public Map<String, Backend> backends() {
    return backends;
  }

  /** @return every instance this registry has created, by kind ({@code circuitbreaker}, {@code ratelimit}, …) */
  public Map<String, Set<String>> names() {
    return store.names();
  }

  /**
   * Where every value this registry runs with came from. Each call name is also logged at DEBUG on
   * the logger {@code dev.brace} when the registry resolves it for the first time.
   *
   * @return every instance created so far with each effective setting and the layer that set it
   *     (annotation and its call site, programmatic, environment variable, system property,
   *     default), and every call resolved so far with its patterns outermost first; {@code
   *     toString()} prints it as a table
   */
  public Description describe() {
    return store.describe();
  }

  /**
   * @param kind the instance's kind
   * @param name its name ({@code recs-api}, {@code RecsClient.recommendations}); a keyed family's
   *     member ({@code recs-api[user:42]}) is described by its family
   * @return the instance's effective settings, each with the layer that set it
   * @throws IllegalArgumentException when this registry has created no instance of that kind and
   *     name, or configuration switched it off
   * @throws NullPointerException when an argument is null
   */
  public Description.Instance describe(Kind kind, String name) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Description description = store.describe();
    Optional<Description.Instance> instance = description.instance(kind, name);
    int open = name.indexOf('[');
    if (instance.isEmpty() && open > 0 && name.endsWith("]")) {
      instance = description.instance(kind, name.substring(0, open));
    }
    return found(instance.orElse(null), kind, name);
  }

  /**
   * @param listener receives every event of every instance (names in {@link EventKind}: {@code retry.*},
   *     {@code circuit.*}, …), attributes redacted; one that throws is logged and ignored
   * @return closing it unsubscribes
   * @throws NullPointerException when {@code listener} is null
   */
  public AutoCloseable subscribe(Consumer<Event> listener) {
    return store.events().subscribe(listener);
  }

  /**
   * Subscribes a metrics binder: besides every event {@link #subscribe} delivers, it receives
   * {@code call.succeeded} and {@code call.failed} once per attempt that reached the dependency, and
   * {@code instance.created} when a shared instance is created. While one is subscribed every call
   * builds an event, so ordinary listeners should use {@link #subscribe}.
   *
   * @param listener receives every event; one that throws is logged and ignored
   * @return closing it unsubscribes
   * @throws NullPointerException when {@code listener} is null
   */
  public AutoCloseable subscribeForMetrics(Consumer<Event> listener) {
    return store.events().subscribeForMetrics(listener);
  }

  /**
   * Binds a metrics binder ({@code BraceMetrics}) to the typed path, which builds no {@link Event} for it.
   * @param listener the binder; one that throws is logged and ignored
   * @return closing it unbinds the listener
   * @throws NullPointerException when {@code listener} is null
   */
  public AutoCloseable bindMetrics(MetricsListener listener) {
    return store.events().bindMetrics(listener);
  }

  /** @return the clock of every policy in this registry */
  public TimeSource timeSource() {
    return store.time();
  }

  /** @return the scheduler for deadlines and asynchronous waits */
  public ScheduledExecutorService scheduler() {
    return store.scheduler();
  }

  /** Builds a {@link Registry}. Not thread-safe; build once. */
  public static final class Builder {
    private TimeSource timeSource = TimeSource.system();
    private ScheduledExecutorService scheduler;
    private Clock wallClock = Clock.systemUTC();
    private final Map<Kind, Map<String, ConfigBuilder<?>>> programmatic = new EnumMap<>(Kind.class);
    private Map<String, String> environment = System.getenv();
    private Map<String, String> systemProperties;
    private boolean strictConfiguration;
    private Function<String, String> keyOrigins = key -> null;
    private final Map<String, Backend> backends = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Makes a backend available to the rate limiters and circuit breakers whose {@code backend}
     * setting names it ({@code BRACE_RATELIMIT_<NAME>_BACKEND=redis}, {@code
     * brace.circuitbreaker.<name>.backend=redis}, or programmatically); every other instance keeps
     * its state in this JVM.
     *
     * @param name the name settings use, e.g. {@code "redis"}; not {@code "local"}
     * @param backend the backend
     * @return this
     * @throws IllegalArgumentException when the name is {@code "local"} or not letters, digits,
     *     {@code -} and {@code _}
     * @throws NullPointerException when an argument is null
     */
    public Builder backend(String name, Backend backend) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(backend, "backend");
      if (name.equals(Backend.LOCAL) || !name.matches("[A-Za-z0-9_-]+")) {
        throw new IllegalArgumentException(Message.BACKEND_NAME.format(name));
      }
      backends.put(name, backend);
      return this;
    }

    /**
     * Makes a configuration key that addresses no known instance or property (a typo) an error
     * when the registry is built, instead of a warning; so does {@code brace.strict-configuration=true}
     * or {@code BRACE_STRICT_CONFIGURATION=true} in the configuration the registry reads.
     *
     * @return this
     */
    public Builder strictConfiguration() {
      this.strictConfiguration = true;
      return this;
    }

    /**
     * @param environment the variables to read {@code BRACE_...} settings from instead of the
     *     process environment (tests use this)
     * @return this
     */
    public Builder environment(Map<String, String> environment) {
      this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
      return this;
    }

    /**
     * @param systemProperties the properties to read {@code brace.…} settings from instead of
     *     {@link System#getProperties()} (tests use this)
     * @return this
     */
    public Builder systemProperties(Map<String, String> systemProperties) {
      this.systemProperties = Map.copyOf(Objects.requireNonNull(systemProperties, "systemProperties"));
      return this;
    }

    /**
     * Tells {@link #describe()} where the application's configuration got each key of the two outer
     * layers, so a setting's source names it as the application does: a framework that reads its
     * own property sources into {@link #environment} and {@link #systemProperties} (Spring Boot's
     * {@code application.yml}) says which source gave a key.
     *
     * @param keyOrigins for a key as the registry reads it ({@code BRACE_…}, {@code brace.…}), where
     *     it came from ({@code class path resource [application.yml] - 3:26}), or null when unknown;
     *     asked whenever a setting is resolved, so it may answer for the latest reconfiguration
     * @return this
     * @throws NullPointerException when {@code keyOrigins} is null
     */
    public Builder keyOrigins(Function<String, String> keyOrigins) {
      this.keyOrigins = Objects.requireNonNull(keyOrigins, "keyOrigins");
      return this;
    }

    /**
     * @param timeSource the clock and sleep of every policy; a {@link ManualTimeSource} also
     *     brings its scheduler unless {@link #scheduler} is given
     * @return this
     */
    public Builder timeSource(TimeSource timeSource) {
      this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
      return this;
    }

    /**
     * @param scheduler runs deadlines and asynchronous waits; the registry does not shut it down
     * @return this
     */
    public Builder scheduler(ScheduledExecutorService scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /**
     * @param wallClock the wall clock (default {@link Clock#systemUTC()}): it stamps events, and a
     *     {@code Retry-After} header that gives an HTTP date is measured against it. Durations,
     *     waits and deadlines use the {@linkplain #timeSource time source} instead.
     * @return this
     * @throws NullPointerException when {@code wallClock} is null
     */
    public Builder wallClock(Clock wallClock) {
      this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
      return this;
    }

    /**
     * @param name a retry's name (by default the call name {@code Interface.method})
     * @param settings sets what overrides the annotation
     * @return this
     */
    public Builder retry(String name, Consumer<RetryConfig.Builder> settings) {
      return set(Kind.RETRY, RetryConfig.builder(name), settings);
    }

    /**
     * @param name a hedge's name (by default the call name {@code Interface.method})
     * @param settings sets what overrides the annotation
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when a setting is refused
     */
    public Builder hedge(String name, Consumer<HedgeConfig.Builder> settings) {
      return set(Kind.HEDGE, HedgeConfig.builder(name), settings);
    }

    /**
     * @param name a circuit breaker's name
     * @param settings sets what overrides the annotation
     * @return this
     */
    public Builder circuitBreaker(String name, Consumer<CircuitBreakerConfig.Builder> settings) {
      return set(Kind.CIRCUITBREAKER, CircuitBreakerConfig.builder(name), settings);
    }

    /**
     * @param name a rate limiter's name
     * @param settings sets what overrides the annotation
     * @return this
     */
    public Builder rateLimit(String name, Consumer<RateLimitConfig.Builder> settings) {
      return set(Kind.RATELIMIT, RateLimitConfig.builder(name), settings);
    }

    /**
     * @param name a bulkhead's name
     * @param settings sets what overrides the annotation
     * @return this
     */
    public Builder bulkhead(String name, Consumer<BulkheadConfig.Builder> settings) {
      return set(Kind.BULKHEAD, BulkheadConfig.builder(name), settings);
    }

    /**
     * @param name a timeout's name (by default the call name)
     * @param settings sets what overrides the annotation
     * @return this
     */
    public Builder timeout(String name, Consumer<TimeoutConfig.Builder> settings) {
      return set(Kind.TIMEOUT, TimeoutConfig.builder(name), settings);
    }

    /**
     * @param name a call name
     * @param settings sets what overrides the annotation
     * @return this
     */
    public Builder fallback(String name, Consumer<FallbackConfig.Builder> settings) {
      return set(Kind.FALLBACK, FallbackConfig.builder(name), settings);
    }

    /**
     * @param name a call name ({@code @StaleIfError} is named after its call)
     * @param settings sets what overrides the annotation
     * @return this
     */
    public Builder staleIfError(String name, Consumer<StaleIfErrorConfig.Builder> settings) {
      return set(Kind.STALEIFERROR, StaleIfErrorConfig.builder(name), settings);
    }

    /**
     * How one call takes part in deadlines ({@link Deadline}): {@code d -> d.inherit(false)} lets a
     * call that must finish once started (a write) ignore its caller's deadline, so that only its
     * own timeout bounds it.
     *
     * @param call a call name ({@code Interface.method}, a stack's name)
     * @param settings its settings
     * @return this
     */
    public Builder deadline(String call, Consumer<DeadlineConfig.Builder> settings) {
      return set(Kind.DEADLINE, DeadlineConfig.builder(call), settings);
    }

    /**
     * @param name a retry budget's name
     * @param settings its settings
     * @return this
     */
    public Builder retryBudget(String name, Consumer<RetryBudgetConfig.Builder> settings) {
      return set(Kind.RETRYBUDGET, RetryBudgetConfig.builder(name), settings);
    }

    /**
     * Fault injection under a name: every call that has the name (its call name, or the name of a
     * breaker, limiter, bulkhead, retry, … it uses) gets its attempts delayed and failed at these
     * rates. Nothing is injected unless fault injection is switched on ({@code
     * BRACE_CHAOS_ENABLED=true} or the system property {@code brace.chaos.enabled=true}); the
     * environment and system properties override these settings as they do every other.
     *
     * @param name a call's name or an instance's name
     * @param settings e.g. {@code c -> c.faultRate(0.5).fault(IOException.class)}
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when a setting is refused
     * @throws NullPointerException when an argument is null
     */
    public Builder chaos(String name, Consumer<ChaosConfig.Builder> settings) {
      return set(Kind.CHAOS, ChaosConfig.builder(name), settings);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private <B extends ConfigBuilder<B>> Builder set(Kind kind, B builder, Consumer<B> settings) {
      Objects.requireNonNull(settings, "settings").accept(builder);
      programmatic
          .computeIfAbsent(kind, k -> new LinkedHashMap<>())
          .merge(builder.name(), builder, (earlier, later) -> ((ConfigBuilder) earlier).overlay((ConfigBuilder) later));
      return this;
    }

    /** @return the registry */
    public Registry build() {
      Supplier<ScheduledExecutorService> schedulerSupplier;
      if (scheduler != null) {
        ScheduledExecutorService given = scheduler;
        schedulerSupplier = () -> given;
      } else if (timeSource instanceof ManualTimeSource) {
        ScheduledExecutorService manual = ((ManualTimeSource) timeSource).scheduler();
        schedulerSupplier = () -> manual;
      } else {
        schedulerSupplier = new LazyScheduler();
      }
      Map<Kind, Map<String, ConfigBuilder<?>>> layers = new EnumMap<>(Kind.class);
      programmatic.forEach((kind, byName) -> layers.put(kind, Map.copyOf(byName)));
      Map<String, String> properties = systemProperties != null ? systemProperties : braceSystemProperties();
      boolean strict = strictConfiguration || ConfigAudit.strictConfiguration(environment, properties);
      audit(environment, properties, strict);
      InstanceStore store =
          new InstanceStore(
              timeSource,
              schedulerSupplier,
              WorkerThreads.abandonedAttempts(),
              new EventBus(wallClock),
              new ConfigLayers(layers, environment, properties, keyOrigins),
              backends);
      return new Registry(store, strict, Collections.unmodifiableMap(new LinkedHashMap<>(backends)));
    }

    /** Reports keys that configure nothing: one warning listing them all, or an error when strict. */
    private void audit(Map<String, String> environment, Map<String, String> properties, boolean strict) {
      Map<Kind, Set<String>> configured = new EnumMap<>(Kind.class);
      programmatic.forEach((kind, byName) -> configured.put(kind, byName.keySet()));
      List<String> problems = ConfigAudit.unknownKeyProblems(configured, environment, properties);
      if (problems.isEmpty()) {
        return;
      }
      String listed = String.join("\n  ", problems);
      if (strict) {
        throw new ConfigurationException(Message.UNKNOWN_KEYS.format(listed));
      }
      LoggerFactory.getLogger("dev.brace").warn(Message.UNKNOWN_KEYS_WARNING.format(listed));
    }
  }

  /** A snapshot of the {@code brace.} system properties, taken when the registry is built. */
  private static Map<String, String> braceSystemProperties() {
    Map<String, String> brace = new HashMap<>();
    System.getProperties().forEach((key, value) -> {
      if (key instanceof String && ((String) key).startsWith("brace.") && value instanceof String) {
        brace.put((String) key, (String) value);
      }
    });
    return brace;
  }
}
