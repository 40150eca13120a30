package dev.brace.runtime.internal.store;

import dev.brace.runtime.Backend;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.Durations;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.AttemptBounds;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.Idempotence;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryBudgetConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.WorkerThreads;
import dev.brace.runtime.internal.config.ConfigAudit;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.config.ExplainedConfig;
import dev.brace.runtime.internal.config.ConfigValues;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DefaultCircuitBreaker;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.internal.policy.RetryBudget;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.StaleAnswers;
import dev.brace.runtime.internal.policy.Throttling;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.internal.sequence.CallSequence;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.EventSink;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@code Registry} holds: the shared, named instances, the layers of configuration above
 * the call sites, and the clock, scheduler and event bus every policy uses. It resolves a {@link
 * CallDefinition} into a {@link CallSequence}: each pattern's site values with every outer layer
 * laid over them, checked against what the site fixed at compile time, and each shared instance
 * created on first use (locally, or in the backend its settings name) and shared afterwards.
 *
 * <p>It keeps every call it resolved (weakly) with its definition, so {@link #reconfigure} can
 * resolve them all again under new outer layers: planned in full first, committed only when every
 * setting is valid. Shared instances take their new settings in place and keep their state; each
 * call switches to its new sequence whole, so a call that has started finishes on the one it
 * started with.
 */
public final class InstanceStore {
  /** {@code @Retry(maxRetryAfter)}'s default: what caps an adaptive limiter's block when the call has no retry. */
  private static final Duration DEFAULT_MAX_RETRY_AFTER = RetryConfig.builder("default").build().maxRetryAfter();
  private final TimeSource time;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final Executor abandonedWorkers;
  private final EventBus events;
  private volatile ConfigLayers layers;
  private final Map<String, Backend> backends;

  private final SharedInstances<KeyedFamily<CircuitBreakerInstance>> breakers =
      new SharedInstances<>(Kind.CIRCUITBREAKER, new FamilyReshaper<>(
          CircuitBreakerInstance::reconfigurable,
          (breaker, config) -> breaker.reconfigure((CircuitBreakerConfig) config),
          (config, member) -> ((CircuitBreakerConfig) config).toBuilder(member).build(),
          config -> {
            Function<CircuitBreakerConfig, CircuitBreakerInstance> make = breakerMaker((CircuitBreakerConfig) config);
            return member -> make.apply((CircuitBreakerConfig) member);
          },
          config -> ((CircuitBreakerConfig) config).maxKeys()));
  private final SharedInstances<KeyedFamily<RateLimiterInstance>> limiters =
      new SharedInstances<>(Kind.RATELIMIT, new FamilyReshaper<>(
          RateLimiterInstance::reconfigurable,
          (limiter, config) -> limiter.reconfigure((RateLimitConfig) config),
          (config, member) -> ((RateLimitConfig) config).toBuilder(member).build(),
          config -> {
            Function<RateLimitConfig, RateLimiterInstance> make = limiterMaker((RateLimitConfig) config);
            return member -> make.apply((RateLimitConfig) member);
          },
          config -> ((RateLimitConfig) config).maxKeys()));
  private final SharedInstances<SemaphoreBulkhead> bulkheads =
      new SharedInstances<>(Kind.BULKHEAD, SharedInstances.reshaper(
          (bulkhead, config) -> bulkhead.reconfigure((BulkheadConfig) config)));
  private final SharedInstances<RetryBudget> budgets =
      new SharedInstances<>(Kind.RETRYBUDGET, SharedInstances.reshaper((budget, config) -> {
        RetryBudgetConfig settings = (RetryBudgetConfig) config;
        budget.reconfigure(settings.percentCanRetry(), settings.minRetriesPerSecond(), settings.ttl());
      }));
  /** Where hedged synchronous attempts run; created when the first hedge is resolved. */
  private volatile Executor hedgeWorkers;
  /**
   * Call-scoped instances (retries, timeouts, fallbacks) are made per call; the settings each name
   * last resolved to, with their sources, and the sites that use it are kept, for {@link #names()},
   * {@link #describe()} and a reconfiguration's {@code config.changed} events.
   */
  private final Map<Kind, Map<String, CallScoped>> callScoped = new ConcurrentHashMap<>();
  /** Every call resolved, by call name, with its patterns in order, as it was last resolved. */
  private final Map<String, Description.Call> calls = new ConcurrentHashMap<>();
  private final Map<Kind, Set<String>> switchedOff = new ConcurrentHashMap<>();
  private final LiveCalls live = new LiveCalls();
  /** Resolutions share it; a reconfiguration holds it alone, so no call is resolved half on the old layers. */
  private final ReentrantReadWriteLock configuring = new ReentrantReadWriteLock();

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
   * afterwards. With Brace switched off the call passes straight through. The call is kept, so a
   * reconfiguration resolves it again.
   *
   * @param definition the call as its site declares it
   * @return the resolved call
   * @throws ConfigurationException when a setting is invalid, conflicts with an earlier site, or
   *     contradicts what the site fixed at compile time (its keys, its fallback's parameter)
   */
  public ResilientCall resolve(CallDefinition definition) {
    Objects.requireNonNull(definition, "definition");
    configuring.readLock().lock();
    try {
      Resolution resolution = new Resolution(layers, null, null, definition);
      CallSequence sequence = sequence(definition, resolution);
      ResilientCall call = new ResilientCall(sequence);
      resolution.remember();
      live.add(call, definition, sequence);
      return call;
    } finally {
      configuring.readLock().unlock();
    }
  }

  /**
   * Re-reads the environment and system property layers and applies what changed to every live
   * instance and call, all or nothing. Shared instances take their new settings in place (a
   * breaker keeps its state, a limiter its tokens, a bulkhead its calls in flight); every live call
   * switches to a sequence resolved anew, from its next call on. One {@code config.changed} event is
   * emitted per changed property of each instance.
   *
   * @param environment the environment variables to read from now on
   * @param systemProperties the system properties to read from now on
   * @param strict whether a key that configures nothing refuses the reconfiguration (else it is logged)
   * @throws ConfigurationException naming every refused setting; nothing has changed then
   */
  public void reconfigure(Map<String, String> environment, Map<String, String> systemProperties, boolean strict) {
    configuring.writeLock().lock();
    try {
      ConfigLayers next = layers.withExternal(environment, systemProperties);
      Set<String> problems = new LinkedHashSet<>();
      boolean on = switchedOn(next, problems);
      String unknown = ConfigAudit.unknownKeys(knownNames(next), environment, systemProperties);
      if (unknown != null && strict) {
        problems.add(unknown);
      }
      checkSwitches(next, problems);
      Plans plans = new Plans(next, on, problems);
      List<Resolved> resolved = new ArrayList<>();
      for (LiveCalls.Live call : live.all()) {
        Resolution resolution = new Resolution(next, plans, call.sequence, call.definition);
        try {
          resolved.add(new Resolved(call.call, sequence(call.definition, resolution), resolution));
        } catch (ConfigurationException refused) {
          resolution.refused.forEach(each -> problems.add(each.getMessage()));
          problems.add(refused.getMessage());
        }
      }
      if (!problems.isEmpty()) {
        throw new ConfigurationException(Message.RECONFIGURATION_REFUSED.format(String.join("\n  ", problems)));
      }
      if (unknown != null) {
        LoggerFactory.getLogger("dev.brace").warn(unknown);
      }
      ConfigChanges changes = new ConfigChanges();
      before(changes);
      plans.commit();
      layers = next;
      switchedOff.clear();
      for (Resolved call : resolved) {
        call.resolution.remember();
        call.call.switchTo(call.sequence);
        live.switched(call.call, call.sequence);
      }
      after(changes, next, on, resolved);
      changes.emit(events);
    } finally {
      configuring.writeLock().unlock();
    }
  }

  private static boolean switchedOn(ConfigLayers layers, Set<String> problems) {
    try {
      return layers.globallyEnabled();
    } catch (ConfigurationException refused) {
      problems.add(refused.getMessage());
      return false;
    }
  }

  /**
   * Every name the events report reads its switch; a call-scoped name whose wrapper is gone is not
   * resolved again, so its switch is checked here, before anything is applied.
   */
  private void checkSwitches(ConfigLayers next, Set<String> problems) {
    Map<Kind, Set<String>> names = new EnumMap<>(Kind.class);
    callScoped.forEach((kind, byName) -> names.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(byName.keySet()));
    switchedOff.forEach((kind, off) -> names.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(off));
    names.forEach((kind, each) -> each.forEach(name -> {
      try {
        next.enabled(kind, name);
      } catch (ConfigurationException refused) {
        problems.add(refused.getMessage());
      }
    }));
  }

  /** Names a key may address without being a typo: the manifest's (read by the audit), code's, and every live instance's. */
  private Map<Kind, Set<String>> knownNames(ConfigLayers next) {
    Map<Kind, Set<String>> known = new EnumMap<>(Kind.class);
    next.programmaticNames().forEach((kind, names) -> known.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(names));
    names().forEach((kind, names) -> known.computeIfAbsent(kindOf(kind), k -> new TreeSet<>()).addAll(names));
    switchedOff.forEach((kind, names) -> known.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(names));
    return known;
  }

  private static Kind kindOf(String key) {
    return Kind.valueOf(key.toUpperCase(java.util.Locale.ROOT));
  }

  /** What every instance ran on before a reconfiguration. */
  private void before(ConfigChanges changes) {
    ConfigLayers now = layers;
    boolean on = now.globallyEnabled();
    forEachShared((kind, instances) -> instances.all().keySet().forEach(name ->
        changes.before(kind, name, instances.config(name), on && now.enabled(kind, name))));
    callScoped.forEach((kind, byName) -> byName.forEach((name, scoped) ->
        changes.before(kind, name, scoped.explained.config(), on && now.enabled(kind, name))));
    switchedOff.forEach((kind, names) -> names.forEach(name -> changes.before(kind, name, null, false)));
  }

  /** What every instance runs on after it. */
  private void after(ConfigChanges changes, ConfigLayers next, boolean on, List<Resolved> resolved) {
    for (Resolved call : resolved) {
      call.resolution.configs.forEach((kind, explained) ->
          changes.after(kind, explained.config().name(), explained.config(), true));
      call.resolution.off.forEach((kind, name) -> changes.after(kind, name, null, false));
    }
    forEachShared((kind, instances) -> instances.all().keySet().forEach(name ->
        changes.after(kind, name, instances.config(name), on && next.enabled(kind, name))));
    callScoped.forEach((kind, byName) -> byName.forEach((name, scoped) ->
        changes.after(kind, name, scoped.explained.config(), on && next.enabled(kind, name))));
  }

  private void forEachShared(java.util.function.BiConsumer<Kind, SharedInstances<?>> action) {
    action.accept(Kind.CIRCUITBREAKER, breakers);
    action.accept(Kind.RATELIMIT, limiters);
    action.accept(Kind.BULKHEAD, bulkheads);
    action.accept(Kind.RETRYBUDGET, budgets);
  }

  /** A live call with the sequence a planned reconfiguration resolved for it. */
  private static final class Resolved {
    final ResilientCall call;
    final CallSequence sequence;
    final Resolution resolution;

    Resolved(ResilientCall call, CallSequence sequence, Resolution resolution) {
      this.call = call;
      this.sequence = sequence;
      this.resolution = resolution;
    }
  }

  /** The planned settings of every shared instance; committed together. */
  private final class Plans {
    final SharedInstances<KeyedFamily<CircuitBreakerInstance>>.Plan breakers;
    final SharedInstances<KeyedFamily<RateLimiterInstance>>.Plan limiters;
    final SharedInstances<SemaphoreBulkhead>.Plan bulkheads;
    final SharedInstances<RetryBudget>.Plan budgets;

    Plans(ConfigLayers next, boolean on, Set<String> problems) {
      List<String> refused = new ArrayList<>();
      this.breakers = InstanceStore.this.breakers.plan(settings(next, on), refused);
      this.limiters = InstanceStore.this.limiters.plan(settings(next, on), refused);
      this.bulkheads = InstanceStore.this.bulkheads.plan(settings(next, on), refused);
      this.budgets = InstanceStore.this.budgets.plan(settings(next, on), refused);
      problems.addAll(refused);
    }

    /**
     * An instance switched off keeps the settings it had; it is not used until it is switched on
     * again. The new settings carry their sources, so {@link #describe()} follows a reconfiguration.
     */
    private java.util.function.BiFunction<ConfigBuilder<?>, String, ExplainedConfig> settings(ConfigLayers next, boolean on) {
      return (written, site) -> on && next.enabled(written.kind(), written.name()) ? next.explain(written, site) : null;
    }

    void commit() {
      breakers.commit(InstanceStore.this::created);
      limiters.commit(InstanceStore.this::created);
      bulkheads.commit(InstanceStore.this::created);
      budgets.commit(InstanceStore.this::created);
    }
  }

  /**
   * One resolution of a call, against the live instances ({@code plans} null) or against a
   * planned reconfiguration; collects the settings of each pattern and the instances switched off.
   */
  private final class Resolution {
    final ConfigLayers layers;
    final Plans plans;
    final Map<Kind, ExplainedConfig> configs = new EnumMap<>(Kind.class);
    final Map<Kind, String> off = new EnumMap<>(Kind.class);
    /** In a reconfiguration, every setting of the call that was refused, in call order. */
    final List<ConfigurationException> refused = new ArrayList<>();
    /** The sequence the call runs on before a reconfiguration; null when it is first resolved. */
    final CallSequence before;
    final CallDefinition definition;

    Resolution(ConfigLayers layers, Plans plans, CallSequence before, CallDefinition definition) {
      this.layers = layers;
      this.plans = plans;
      this.before = before;
      this.definition = definition;
    }

    /**
     * The call's remembered results: those it had before a reconfiguration (carried to the new
     * settings), so that changing an unrelated setting does not forget every answer; else new.
     */
    StaleAnswers staleAnswers(StaleIfErrorConfig config, String callName) {
      StaleAnswers earlier = before == null ? null : before.staleAnswers();
      return earlier == null ? new StaleAnswers(config, callName, time, events) : earlier.carriedTo(config);
    }

    <T> T shared(
        SharedInstances<T> instances,
        SharedInstances<T>.Plan plan,
        ConfigBuilder<?> written,
        ExplainedConfig explained,
        String site,
        Function<InstanceConfig, T> create) {
      return plan == null
          ? instances.obtain(written, explained, site, create, () -> created(explained.config()))
          : plan.obtain(written, explained, site, create);
    }

    /**
     * Records, once the call is kept, what its call-scoped patterns run on (with where each value
     * came from, and the site) and what is switched off, then the call's description.
     */
    void remember() {
      configs.forEach((kind, explained) -> {
        if (!kind.isShared()) {
          callScoped.computeIfAbsent(kind, k -> new ConcurrentHashMap<>())
              .computeIfAbsent(explained.config().name(), name -> new CallScoped(explained))
              .resolved(explained, definition.site());
        }
      });
      off.forEach((kind, name) -> switchedOff.computeIfAbsent(kind, k -> ConcurrentHashMap.newKeySet()).add(name));
      described(definition, configs.keySet());
    }
  }

  private CallSequence sequence(CallDefinition definition, Resolution resolution) {
    ConfigLayers layers = resolution.layers;
    if (!layers.globallyEnabled()) {
      return new CallSequence(definition.callName(), time, events, scheduler, CallSequence.Patterns.none());
    }
    Plans plans = resolution.plans;
    CallSequence.Patterns patterns = new CallSequence.Patterns().criticality(definition.criticality());
    // An adaptive limiter's hint is capped by the call's retry, which comes first in call order.
    Duration maxRetryAfter = DEFAULT_MAX_RETRY_AFTER;
    RetryPolicy retry = null;
    // A reconfiguration applies nothing until every call has been resolved, so it can go on past a
    // refused value and report every one of the call's, not only the first.
    List<ConfigurationException> refused = plans == null ? null : resolution.refused;
    for (Map.Entry<Kind, ConfigBuilder<?>> pattern : definition.patterns().entrySet()) {
      Kind kind = pattern.getKey();
      ConfigBuilder<?> site = pattern.getValue();
      if (!layers.enabled(kind, site.name())) {
        resolution.off.put(kind, site.name());
        continue;
      }
      ExplainedConfig explained;
      try {
        explained = layers.explain(site, definition.site());
      } catch (ConfigurationException problem) {
        if (refused == null) {
          throw problem;
        }
        refused.add(problem);
        continue;
      }
      InstanceConfig config = explained.config();
      if (definition.notIdempotent()) {
        checkIdempotence(explained, definition);
      }
      resolution.configs.put(kind, explained);
      switch (kind) {
        case FALLBACK:
          patterns.fallback(fallback((FallbackConfig) config, definition));
          break;
        case STALEIFERROR:
          checkKey(site, config, definition);
          patterns.stale(resolution.staleAnswers((StaleIfErrorConfig) config, definition.callName()));
          break;
        case RETRY:
          retry = retry((RetryConfig) config, definition, resolution);
          patterns.retry(retry);
          maxRetryAfter = ((RetryConfig) config).maxRetryAfter();
          break;
        case HEDGE:
          patterns.hedge(hedge((HedgeConfig) config, definition, retry, resolution), hedgeWorkers());
          break;
        case CIRCUITBREAKER:
          checkKey(site, config, definition);
          patterns.breakers(resolution.shared(breakers, plans == null ? null : plans.breakers, site, explained,
                  definition.site(), c -> breakerFamily((CircuitBreakerConfig) c)))
              .timesAttempts(((CircuitBreakerConfig) config).judgesSlowCalls());
          break;
        case RATELIMIT:
          checkKey(site, config, definition);
          patterns.limiters(resolution.shared(limiters, plans == null ? null : plans.limiters, site, explained,
              definition.site(), c -> limiterFamily((RateLimitConfig) c)));
          if (((RateLimitConfig) config).adaptive()) {
            patterns.throttling(new Throttling((RateLimitConfig) config, maxRetryAfter, events.wallClock()));
          }
          break;
        case BULKHEAD:
          patterns.bulkhead(resolution.shared(bulkheads, plans == null ? null : plans.bulkheads, site, explained,
              definition.site(), c -> new SemaphoreBulkhead((BulkheadConfig) c, time, scheduler, events)));
          break;
        case TIMEOUT:
          patterns.timeout(new TimeoutPolicy((TimeoutConfig) config, definition.callName(), time, scheduler.get(), abandonedWorkers, events));
          break;
        default:
          throw new IllegalStateException("a call has no pattern of kind " + kind);
      }
    }
    List<ConfigurationException> unfit = attemptsThatDoNotFitRetry(resolution.configs, definition);
    if (refused == null && !unfit.isEmpty()) {
      throw unfit.get(0);
    }
    if (refused != null) {
      refused.addAll(unfit);
      if (!refused.isEmpty()) {
        throw refused.get(0);
      }
    }
    return new CallSequence(definition.callName(), time, events, scheduler, patterns);
  }

  private RetryPolicy retry(RetryConfig config, CallDefinition definition, Resolution resolution) {
    String budgetName = config.budget();
    RetryBudget budget = null;
    if (!budgetName.isEmpty()) {
      if (resolution.layers.enabled(Kind.RETRYBUDGET, budgetName)) {
        budget = budget(budgetName, definition.site(), resolution);
      } else {
        resolution.off.put(Kind.RETRYBUDGET, budgetName);
      }
    }
    return new RetryPolicy(config, definition.callName(), time, events, budget);
  }

  /**
   * A hedge draws on a retry budget like a retry. When the call's retry names the same budget, that
   * retry's deposit (once per call) is the call's only one, so hedges and retries share one count.
   */
  private HedgePolicy hedge(HedgeConfig config, CallDefinition definition, RetryPolicy retry, Resolution resolution) {
    String budgetName = config.budget();
    RetryBudget budget = null;
    if (!budgetName.isEmpty()) {
      if (resolution.layers.enabled(Kind.RETRYBUDGET, budgetName)) {
        budget = budget(budgetName, definition.site(), resolution);
      } else {
        resolution.off.put(Kind.RETRYBUDGET, budgetName);
      }
    }
    boolean retryDeposits = retry != null && retry.budget() == budget;
    return new HedgePolicy(config, definition.callName(), events, budget, !retryDeposits);
  }

  private Executor hedgeWorkers() {
    Executor workers = hedgeWorkers;
    if (workers == null) {
      synchronized (this) {
        workers = hedgeWorkers;
        if (workers == null) {
          hedgeWorkers = workers = WorkerThreads.forHedgedAttempts();
        }
      }
    }
    return workers;
  }

  private RetryBudget budget(String name, String site, Resolution resolution) {
    RetryBudgetConfig.Builder written = RetryBudgetConfig.builder(name);
    ExplainedConfig explained = resolution.layers.explain(written, name);
    RetryBudgetConfig config = (RetryBudgetConfig) explained.config();
    return resolution.shared(
        budgets, resolution.plans == null ? null : resolution.plans.budgets, written, explained, site,
        c -> new RetryBudget(name, config.percentCanRetry(), config.minRetriesPerSecond(), config.ttl(), time));
  }

  /**
   * Configuration may narrow which failures a fallback answers, never widen them past what its
   * method can take: a failure it could not receive would be a {@code ClassCastException}.
   */
  private FallbackPolicy fallback(FallbackConfig config, CallDefinition definition) {
    Class<? extends Throwable> takes = definition.fallbackTakes();
    if (takes != null) {
      for (Class<? extends Throwable> type : config.on()) {
        if (!takes.isAssignableFrom(type)) {
          throw new ConfigurationException(Message.FALLBACK_WIDENED.format(
              definition.site(), definition.fallbackMethod(), takes.getName(), ConfigValues.describe(config.on()),
              type.getName(), takes.getName()));
        }
      }
    }
    return new FallbackPolicy(config, takes, definition.callName(), events);
  }

  /**
   * One attempt must fit in the retry's {@code maxDuration} ({@link AttemptBounds}): the processor
   * refuses that in annotations; this refuses it where configuration or a {@code Stack} made it,
   * with the same tags, one refusal per setting that does not fit, naming where it came from.
   */
  private static List<ConfigurationException> attemptsThatDoNotFitRetry(
      Map<Kind, ExplainedConfig> configs, CallDefinition definition) {
    ExplainedConfig retry = configs.get(Kind.RETRY);
    Optional<Duration> limit = retry == null ? Optional.empty() : ((RetryConfig) retry.config()).maxDuration();
    if (limit.isEmpty()) {
      return List.of();
    }
    List<ConfigurationException> unfit = new ArrayList<>();
    String limitText = Durations.describe(limit.get());
    for (Kind kind : AttemptBounds.exceeding(limit.get(), kind -> Optional.ofNullable(configs.get(kind))
        .map(pattern -> (Duration) pattern.config().values().get(AttemptBounds.attribute(kind))))) {
      ExplainedConfig pattern = configs.get(kind);
      String attribute = AttemptBounds.attribute(kind);
      String bound = Durations.describe((Duration) pattern.config().values().get(attribute));
      unfit.add(kind == Kind.TIMEOUT
          ? new ConfigurationException(Message.MAX_DURATION_BELOW_TIMEOUT.format(definition.site(), limitText,
              retry.source("maxDuration"), bound, pattern.source(attribute)))
          : new ConfigurationException(Message.MAX_DURATION_BELOW_WAIT.format(definition.site(), limitText,
              retry.source("maxDuration"), kind.description(), bound, pattern.source(attribute))));
    }
    return unfit;
  }

  /**
   * A call its site marked not idempotent is never hedged, and retried only on failures that prove
   * the request never left: configuration may narrow that, never widen it. The message says which
   * layer set what is refused.
   */
  private static void checkIdempotence(ExplainedConfig explained, CallDefinition definition) {
    Kind kind = explained.config().kind();
    if (Idempotence.sendsCopies(kind)) {
      throw new ConfigurationException(Message.NOT_IDEMPOTENT_HEDGE.format(definition.site()));
    }
    if (kind != Kind.RETRY) {
      return;
    }
    RetryConfig retry = (RetryConfig) explained.config();
    for (Class<? extends Throwable> type : retry.on()) {
      if (!Idempotence.provesNeverSent(type)) {
        throw new ConfigurationException(Message.NOT_IDEMPOTENT_RETRY.format(definition.site(), Idempotence.describeNeverSent(),
            "its on = " + ConfigValues.describe(retry.on()) + " (" + explained.source("on") + ") includes " + type.getName()));
      }
    }
    if (retry.onResult() != null) {
      throw new ConfigurationException(Message.NOT_IDEMPOTENT_RETRY.format(definition.site(), Idempotence.describeNeverSent(),
          "its onResult = " + ConfigValues.describe(retry.onResult()) + " (" + explained.source("onResult")
              + ") retries a result, which the dependency did send"));
    }
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

  /** Where a registry's descriptions are logged: the logger of what concerns Brace as a whole. */
  private static final Logger DESCRIPTIONS = LoggerFactory.getLogger("dev.brace");

  /**
   * @return every instance created, with each effective setting and the layer that set it, and
   *     every call resolved, with its patterns in order
   */
  public Description describe() {
    List<Description.Instance> instances = new ArrayList<>();
    callScoped.values().forEach(byName -> byName.values().forEach(
        scoped -> instances.add(scoped.explained.describe(new ArrayList<>(new TreeSet<>(scoped.sites))))));
    instances.addAll(breakers.describe());
    instances.addAll(limiters.describe());
    instances.addAll(bulkheads.describe());
    instances.addAll(budgets.describe());
    return new Description(layers.globallyEnabled(), instances, new ArrayList<>(calls.values()));
  }

  /**
   * @return every instance created, by kind key, sorted; a keyed family is listed by its name and
   *     by each member it holds now, {@code name[key]}
   */
  public Map<String, Set<String>> names() {
    Map<Kind, Set<String>> byKind = new EnumMap<>(Kind.class);
    callScoped.forEach((kind, names) -> byKind.computeIfAbsent(kind, k -> new TreeSet<>()).addAll(names.keySet()));
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

  /**
   * @param kind a kind
   * @param name an instance's name (a keyed family's, without a key)
   * @return the settings it runs on now, or null when this registry has none of that name
   */
  public InstanceConfig settings(Kind kind, String name) {
    switch (kind) {
      case CIRCUITBREAKER:
        return breakers.config(name);
      case RATELIMIT:
        return limiters.config(name);
      case BULKHEAD:
        return bulkheads.config(name);
      case RETRYBUDGET:
        return budgets.config(name);
      default:
        CallScoped scoped = callScoped.getOrDefault(kind, Map.of()).get(name);
        return scoped == null ? null : scoped.explained.config();
    }
  }

  /** @return the retry budget named so, or null */
  public RetryBudget retryBudget(String name) {
    return budgets.get(name);
  }

  /** @return whether metrics name each member of a keyed family ({@code brace.metrics.per-key}) */
  public boolean metricsPerKey() {
    return layers.metricsPerKey();
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
}
