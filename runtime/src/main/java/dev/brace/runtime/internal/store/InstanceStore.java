package dev.brace.runtime.internal.store;

import dev.brace.runtime.Backend;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.Description;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.RetryBudget;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.sequence.CallPolicies;
import dev.brace.runtime.internal.sequence.ResilientCalls;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * What a {@code Registry} holds, behind one door: the clock, scheduler and event bus every policy
 * uses, what the registry holds now ({@link InstanceCatalog}), how a call is resolved ({@link
 * CallResolver}) and how new configuration is applied ({@link Reconfiguration}). It keeps every
 * call it resolved (weakly, in {@link LiveCalls}) with its definition, so a reconfiguration can
 * resolve them all again, and it keeps resolutions and reconfigurations apart.
 */
public final class InstanceStore {
  private final TimeSource time;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final EventBus events;
  private final InstanceCatalog catalog;
  private final CallResolver resolver;
  private final LiveCalls live = new LiveCalls();
  private final Reconfiguration reconfiguration;
  /** Resolutions share it; a reconfiguration holds it alone, so no call is resolved half on the old layers. */
  private final ReentrantReadWriteLock configuring = new ReentrantReadWriteLock();

  /**
   * @param time the clock of every policy
   * @param scheduler the scheduler for deadlines and async waits, created on first use
   * @param abandonedWorkers runs the attempts of {@code ABANDON} timeouts, each on a thread of its own
   * @param events the event boundary
   * @param layers configuration above the call sites
   * @param backends where instances whose {@code backend} names one keep their state, by name
   * @throws NullPointerException when any argument is null
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
    this.events = Objects.requireNonNull(events, "events");
    Backends where = new Backends(backends, time, scheduler, events);
    this.catalog = new InstanceCatalog(layers, where, events);
    this.resolver = new CallResolver(time, scheduler, abandonedWorkers, events, where);
    this.reconfiguration = new Reconfiguration(catalog, resolver, live, events);
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
      Resolution resolution = Resolution.first(catalog.layers(), catalog, definition);
      CallPolicies policies = resolver.policies(definition, resolution);
      ResilientCall call = ResilientCalls.make(policies);
      catalog.remember(resolution);
      live.add(call, definition, policies);
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
      reconfiguration.apply(environment, systemProperties, strict);
    } finally {
      configuring.writeLock().unlock();
    }
  }

  /**
   * @param kind a kind
   * @param name an instance name
   * @return whether configuration switched that instance off (so it was never created)
   */
  public boolean switchedOff(Kind kind, String name) {
    return catalog.switchedOff(kind, name);
  }

  /**
   * @return every instance created, with each effective setting and the layer that set it, and
   *     every call resolved, with its patterns in order
   */
  public Description describe() {
    return catalog.describe();
  }

  /**
   * @return every instance created, by kind key, sorted; a keyed family is listed by its name and
   *     by each member it holds now, {@code name[key]}
   */
  public Map<String, Set<String>> names() {
    return catalog.names();
  }

  /** @return the breaker named so (a keyed one as {@code name[key]}), or null */
  public CircuitBreakerInstance circuitBreaker(String name) {
    return catalog.circuitBreaker(name);
  }

  /** @return the limiter named so (a keyed one as {@code name[key]}), or null */
  public RateLimiterInstance rateLimiter(String name) {
    return catalog.rateLimiter(name);
  }

  /**
   * @param kind a kind
   * @param name an instance's name (a keyed family's, without a key)
   * @return the settings it runs on now, or null when this registry has none of that name
   */
  public InstanceConfig settings(Kind kind, String name) {
    return catalog.settings(kind, name);
  }

  /** @return the retry budget named so, or null */
  public RetryBudget retryBudget(String name) {
    return catalog.retryBudget(name);
  }

  /** @return whether metrics name each member of a keyed family ({@code brace.metrics.per-key}) */
  public boolean metricsPerKey() {
    return catalog.layers().metricsPerKey();
  }

  /** @return the bulkhead named so, or null */
  public SemaphoreBulkhead bulkhead(String name) {
    return catalog.bulkhead(name);
  }
}
