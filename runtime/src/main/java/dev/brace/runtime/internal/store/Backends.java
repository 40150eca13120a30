package dev.brace.runtime.internal.store;

import dev.brace.runtime.Backend;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.InstanceConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.internal.Message;
import dev.brace.runtime.internal.attempt.KeyedFamily;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DefaultCircuitBreaker;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.spi.BackendContext;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.EventSink;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where a breaker's or limiter's state lives: locally, or in the {@link Backend} its {@code
 * backend} setting names. Makes the families a call's breaker and limiter come from, one instance
 * or one per key, each member made where the family's settings say.
 */
final class Backends {
  private final Map<String, Backend> byName;
  private final TimeSource time;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final EventBus events;

  /**
   * @param byName the backends given to the registry, by name
   * @param time the clock of local instances, and of backends through their context
   * @param scheduler the registry's scheduler, created on first use
   * @param events the event boundary
   */
  Backends(Map<String, Backend> byName, TimeSource time, Supplier<ScheduledExecutorService> scheduler, EventBus events) {
    this.byName = Map.copyOf(Objects.requireNonNull(byName, "backends"));
    this.time = Objects.requireNonNull(time, "time");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.events = Objects.requireNonNull(events, "events");
  }

  /**
   * @return the breaker of the name, or one per key when the settings have a key template
   * @throws ConfigurationException when the settings name a backend the registry was not given
   */
  KeyedFamily<CircuitBreakerInstance> breakerFamily(CircuitBreakerConfig config) {
    Function<CircuitBreakerConfig, CircuitBreakerInstance> create = breakerMaker(config);
    if (config.key().isEmpty()) {
      return KeyedFamily.of(config.name(), create.apply(config));
    }
    return KeyedFamily.keyed(
        config.name(), config.maxKeys(), member -> create.apply(config.toBuilder(member).build()),
        breaker -> breaker.state() != CircuitState.CLOSED);
  }

  /**
   * @return the limiter of the name, or one per key when the settings have a key template
   * @throws ConfigurationException when the settings name a backend the registry was not given
   */
  KeyedFamily<RateLimiterInstance> limiterFamily(RateLimitConfig config) {
    Function<RateLimitConfig, RateLimiterInstance> create = limiterMaker(config);
    if (config.key().isEmpty()) {
      return KeyedFamily.of(config.name(), create.apply(config));
    }
    return KeyedFamily.keyed(
        config.name(), config.maxKeys(), member -> create.apply(config.toBuilder(member).build()),
        RateLimiterInstance::hasWaiters);
  }

  /**
   * @return what makes breakers where the settings' {@code backend} says
   * @throws ConfigurationException when it names a backend the registry was not given
   */
  Function<CircuitBreakerConfig, CircuitBreakerInstance> breakerMaker(CircuitBreakerConfig config) {
    Backend backend = backend(config, config.backend());
    return backend == null
        ? this::localBreaker
        : c -> backend.circuitBreaker(c, new Context(config.backend()));
  }

  /**
   * @return what makes limiters where the settings' {@code backend} says
   * @throws ConfigurationException when it names a backend the registry was not given
   */
  Function<RateLimitConfig, RateLimiterInstance> limiterMaker(RateLimitConfig config) {
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
    Backend backend = byName.get(backendName);
    if (backend == null) {
      List<String> known = new ArrayList<>(new TreeSet<>(byName.keySet()));
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
}
