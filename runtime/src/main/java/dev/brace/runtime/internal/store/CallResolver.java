package dev.brace.runtime.internal.store;

import dev.brace.runtime.ConfigurationException;
import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.BulkheadConfig;
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
import dev.brace.runtime.internal.WorkerThreads;
import dev.brace.runtime.internal.config.ConfigLayers;
import dev.brace.runtime.internal.config.ExplainedConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DeadlinePolicy;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.internal.policy.RetryBudget;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.StaleAnswers;
import dev.brace.runtime.internal.policy.Throttling;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptPipelineBuilder;
import dev.brace.runtime.internal.sequence.CallPolicies;
import dev.brace.runtime.support.CallDefinition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * Resolves a {@link CallDefinition} into the {@link CallPolicies} it runs on: each pattern's site
 * values with every outer layer laid over them, checked against what the site fixed at compile
 * time ({@link SiteChecks}), and made into the call's policies — call-scoped ones anew, shared ones
 * obtained by name from the resolution's {@link InstanceSource}.
 */
final class CallResolver {
  /** {@code @Retry(maxRetryAfter)}'s default: what caps an adaptive limiter's block when the call has no retry. */
  private static final Duration DEFAULT_MAX_RETRY_AFTER = RetryConfig.builder("default").build().maxRetryAfter();

  private final TimeSource time;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final Executor abandonedWorkers;
  private final EventBus events;
  private final Backends backends;
  private final FaultInjections faults;
  /** Where hedged synchronous attempts run; created when the first hedge is resolved. */
  private volatile Executor hedgeWorkers;

  /**
   * @param time the clock of every policy
   * @param scheduler the scheduler for deadlines and async waits, created on first use
   * @param abandonedWorkers runs the attempts of {@code ABANDON} timeouts, each on a thread of its own
   * @param events the event boundary
   * @param backends makes breaker and limiter families where their settings say
   */
  CallResolver(TimeSource time, Supplier<ScheduledExecutorService> scheduler, Executor abandonedWorkers,
      EventBus events, Backends backends) {
    this.time = Objects.requireNonNull(time, "time");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.abandonedWorkers = Objects.requireNonNull(abandonedWorkers, "abandonedWorkers");
    this.events = Objects.requireNonNull(events, "events");
    this.backends = Objects.requireNonNull(backends, "backends");
    this.faults = new FaultInjections(time, scheduler, events);
  }

  /**
   * @param definition the call as its site declares it
   * @param resolution what it is resolved against; collects each pattern's settings and what is switched off
   * @return the call's policies; one that passes straight through when Brace is switched off
   * @throws ConfigurationException the call's first refused setting (in a reconfiguration every
   *     refusal is also in {@link Resolution#refused})
   */
  CallPolicies policies(CallDefinition definition, Resolution resolution) {
    ConfigLayers layers = resolution.layers;
    CallPolicies.Builder call = CallPolicies.builder(definition, time, events, scheduler);
    if (!layers.globallyEnabled()) {
      return call.passThrough().build();
    }
    InstanceSource instances = resolution.instances;
    AttemptPipelineBuilder attempts = AttemptPipeline.builder(definition.callName(), time, events);
    // An adaptive limiter's hint is capped by the call's retry, which comes first in call order.
    Duration maxRetryAfter = DEFAULT_MAX_RETRY_AFTER;
    RetryPolicy retry = null;
    List<ConfigurationException> refused = resolution.refused;
    DeadlinePolicy deadlines = deadlines(definition, resolution);
    attempts.deadlines(deadlines);
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
        SiteChecks.checkIdempotence(explained, definition);
      }
      resolution.configs.put(kind, explained);
      switch (kind) {
        case FALLBACK:
          SiteChecks.checkFallbackTakes((FallbackConfig) config, definition);
          call.fallback(new FallbackPolicy((FallbackConfig) config, definition.fallbackTakes(), definition.callName(), events));
          break;
        case STALEIFERROR:
          SiteChecks.checkKey(site, config, definition);
          call.stale(staleAnswers((StaleIfErrorConfig) config, definition.callName(), resolution.before));
          break;
        case RETRY:
          retry = retry((RetryConfig) config, definition, resolution, deadlines);
          call.retry(retry);
          maxRetryAfter = ((RetryConfig) config).maxRetryAfter();
          break;
        case HEDGE:
          call.hedge(hedge((HedgeConfig) config, definition, retry, resolution), hedgeWorkers());
          break;
        case CIRCUITBREAKER:
          SiteChecks.checkKey(site, config, definition);
          attempts.breakers(instances.obtainBreakers(site, explained, definition.site(),
                  c -> backends.breakerFamily((CircuitBreakerConfig) c)),
              ((CircuitBreakerConfig) config).judgesSlowCalls())
              .breakerJudgesResults(((CircuitBreakerConfig) config).onResult() != null);
          break;
        case RATELIMIT:
          SiteChecks.checkKey(site, config, definition);
          attempts.limiters(instances.obtainLimiters(site, explained, definition.site(),
                  c -> backends.limiterFamily((RateLimitConfig) c)),
              ((RateLimitConfig) config).adaptive() ? new Throttling((RateLimitConfig) config, maxRetryAfter, events.wallClock()) : null);
          break;
        case BULKHEAD:
          attempts.bulkhead(instances.obtainBulkhead(site, explained, definition.site(),
              c -> new SemaphoreBulkhead((BulkheadConfig) c, time, scheduler, events)), definition.criticality());
          break;
        case TIMEOUT:
          attempts.timeout(new TimeoutPolicy((TimeoutConfig) config, definition.callName(), time, scheduler.get(), abandonedWorkers, events));
          break;
        default:
          throw new IllegalStateException("a call has no pattern of kind " + kind);
      }
    }
    attempts.faults(faults.resolve(definition, resolution));
    List<ConfigurationException> unfit = SiteChecks.attemptsThatDoNotFitRetry(resolution.configs, definition);
    if (refused == null && !unfit.isEmpty()) {
      throw unfit.get(0);
    }
    if (refused != null) {
      refused.addAll(unfit);
      if (!refused.isEmpty()) {
        throw refused.get(0);
      }
    }
    ExplainedConfig retried = resolution.configs.get(Kind.RETRY);
    ExplainedConfig hedged = resolution.configs.get(Kind.HEDGE);
    attempts.reportedWith(retried == null ? null : retried.config().name(), hedged == null ? null : hedged.config().name());
    return call.attempts(attempts.build()).build();
  }

  /**
   * The call's remembered results: those it had before a reconfiguration (carried to the new
   * settings), so that changing an unrelated setting does not forget every answer; else new.
   */
  private StaleAnswers staleAnswers(StaleIfErrorConfig config, String callName, CallPolicies before) {
    StaleAnswers earlier = before == null ? null : before.stale();
    return earlier == null ? new StaleAnswers(config, callName, time, events) : earlier.carriedTo(config);
  }

  private RetryPolicy retry(RetryConfig config, CallDefinition definition, Resolution resolution, DeadlinePolicy deadlines) {
    RetryBudget budget = budget(config.budget(), definition.site(), resolution);
    return new RetryPolicy(config, definition.callName(), time, events, budget, deadlines);
  }

  /**
   * How the call takes part in deadlines: every call has its settings ({@code inherit}), named
   * after it and recorded like a pattern's, so {@code describe()} shows them; a policy only while
   * deadlines are switched on, globally and for the call.
   *
   * @return the call's policy, or null when it takes no part in deadlines (or a refused setting is
   *     collected in a reconfiguration)
   */
  private DeadlinePolicy deadlines(CallDefinition definition, Resolution resolution) {
    String call = definition.callName();
    try {
      if (!resolution.layers.enabled(Kind.DEADLINE, call)) {
        resolution.off.put(Kind.DEADLINE, call);
        return null;
      }
      ExplainedConfig explained = resolution.layers.explain(DeadlineConfig.builder(call), definition.site());
      resolution.configs.put(Kind.DEADLINE, explained);
      if (!resolution.layers.deadlinesEnabled()) {
        return null;
      }
      return new DeadlinePolicy((DeadlineConfig) explained.config(), call, time, scheduler, events);
    } catch (ConfigurationException problem) {
      if (resolution.refused == null) {
        throw problem;
      }
      resolution.refused.add(problem);
      return null;
    }
  }

  /**
   * A hedge draws on a retry budget like a retry. When the call's retry names the same budget, that
   * retry's deposit (once per call) is the call's only one, so hedges and retries share one count.
   */
  private HedgePolicy hedge(HedgeConfig config, CallDefinition definition, RetryPolicy retry, Resolution resolution) {
    RetryBudget budget = budget(config.budget(), definition.site(), resolution);
    boolean retryDeposits = retry != null && retry.budget() == budget;
    return new HedgePolicy(config, definition.callName(), events, budget, !retryDeposits);
  }

  /**
   * @param name the budget a retry or hedge names; empty for none
   * @return the shared budget of that name, or null when none is named or configuration switched it off
   */
  private RetryBudget budget(String name, String site, Resolution resolution) {
    if (name.isEmpty()) {
      return null;
    }
    if (!resolution.layers.enabled(Kind.RETRYBUDGET, name)) {
      resolution.off.put(Kind.RETRYBUDGET, name);
      return null;
    }
    RetryBudgetConfig.Builder written = RetryBudgetConfig.builder(name);
    ExplainedConfig explained = resolution.layers.explain(written, name);
    RetryBudgetConfig config = (RetryBudgetConfig) explained.config();
    return resolution.instances.obtainBudget(written, explained, site,
        c -> new RetryBudget(name, config.percentCanRetry(), config.minRetriesPerSecond(), config.ttl(), time));
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
}
