package dev.brace.runtime.config;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.Hedge;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.StaleIfError;
import dev.brace.Timeout;
import java.lang.annotation.Annotation;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The patterns and shared instances Brace knows, with every name each one goes by: its
 * annotation, its configuration key ({@code BRACE_<KIND>_…}, {@code brace.<kind>.…}), how
 * messages call it, and whom an empty {@code name} stands for. The processor and the runtime both
 * read it, so a pattern is described once.
 *
 * <p>Declared in call order, outermost first: {@code values()} lists a call's patterns as they
 * run. The retry budget, a call's deadline and fault injection are not steps a call declares; they
 * come last.
 */
public enum Kind {
  /** {@code @Fallback}. */
  FALLBACK(Fallback.class, "fallback", Scope.CALL, FallbackConfig.class, FallbackConfig::builder),
  /** {@code @StaleIfError}: remembered results answer failures, before the fallback does. */
  STALEIFERROR(StaleIfError.class, "stale-if-error", Scope.CALL, StaleIfErrorConfig.class, StaleIfErrorConfig::builder),
  /** {@code @Retry}. */
  RETRY(Retry.class, "retry", Scope.CALL, RetryConfig.class, RetryConfig::builder),
  /** {@code @Hedge}. */
  HEDGE(Hedge.class, "hedge", Scope.CALL, HedgeConfig.class, HedgeConfig::builder),
  /** {@code @CircuitBreaker}. */
  CIRCUITBREAKER(CircuitBreaker.class, "circuit breaker", Scope.SYSTEM, CircuitBreakerConfig.class, CircuitBreakerConfig::builder),
  /** {@code @RateLimit}. */
  RATELIMIT(RateLimit.class, "rate limiter", Scope.SYSTEM, RateLimitConfig.class, RateLimitConfig::builder),
  /** {@code @Bulkhead}. */
  BULKHEAD(Bulkhead.class, "bulkhead", Scope.SYSTEM, BulkheadConfig.class, BulkheadConfig::builder),
  /** {@code @Timeout}. */
  TIMEOUT(Timeout.class, "timeout", Scope.CALL, TimeoutConfig.class, TimeoutConfig::builder),
  /** A retry budget shared by retries that name it in {@code @Retry(budget)}. */
  RETRYBUDGET(null, "retry budget", Scope.NAMED, RetryBudgetConfig.class, RetryBudgetConfig::builder),
  /** How a call takes part in deadlines ({@code inherit}); every call has one, named after it, with no annotation. */
  DEADLINE(null, "deadline", Scope.CALL, DeadlineConfig.class, DeadlineConfig::builder),

  /**
   * Faults and latency injected into the attempts of every call that has the name: its call name or
   * the name of an instance it uses. Configuration only; there is no annotation.
   */
  CHAOS(null, "fault injection", Scope.NAMED, ChaosConfig.class, ChaosConfig::builder);

  /** Whom an instance of a kind belongs to, and so what an empty {@code name} stands for. */
  public enum Scope {
    /** One call: the name defaults to the call name {@code Interface.method}. */
    CALL,
    /** The system a call protects: the name defaults to the interface's name, and every site that names it shares one instance. */
    SYSTEM,
    /** Addressed by an explicit name only (a retry budget, fault injection); there is no annotation to default from. */
    NAMED
  }

  private final Class<? extends Annotation> annotation;
  private final String description;
  private final Scope scope;
  private final Class<? extends InstanceConfig> configType;
  private final Function<String, ? extends ConfigBuilder<?>> builder;

  Kind(
      Class<? extends Annotation> annotation,
      String description,
      Scope scope,
      Class<? extends InstanceConfig> configType,
      Function<String, ? extends ConfigBuilder<?>> builder) {
    this.annotation = annotation;
    this.description = description;
    this.scope = scope;
    this.configType = configType;
    this.builder = builder;
  }

  /** @return the config class, whose static {@code builder(name)} takes the attributes */
  public Class<? extends InstanceConfig> configType() {
    return configType;
  }

  private static final List<Kind> ANNOTATED =
      Arrays.stream(values()).filter(kind -> kind.annotation != null).collect(Collectors.toUnmodifiableList());

  /** @return the kinds a user writes as annotations, in call order (outermost first) */
  public static List<Kind> annotated() {
    return ANNOTATED;
  }

  /** @return the kind in lower case, as in {@code brace.circuitbreaker.x.y} and {@code names()} */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @return how messages call it: "circuit breaker", "rate limiter", … */
  public String description() {
    return description;
  }

  /** @return the annotation that declares it, or null for the retry budget, the deadline and fault injection, which have none */
  public Class<? extends Annotation> annotation() {
    return annotation;
  }

  /**
   * @param attribute an attribute of this kind's annotation
   * @return whether the annotation's default for it is the empty text: for a duration ({@code
   *     @Retry(maxDuration)}) that means "no limit", not "no time at all"
   */
  public boolean defaultsToEmptyText(String attribute) {
    return annotation != null && AnnotationDefaults.hasDefault(annotation, attribute)
        && "".equals(AnnotationDefaults.of(annotation, attribute));
  }

  /** @return whom an instance belongs to */
  public Scope scope() {
    return scope;
  }

  /**
   * @return whether one instance serves every site that names it (breakers, limiters, bulkheads,
   *     budgets), or, for fault injection, one setting every call that has the name
   */
  public boolean isShared() {
    return scope != Scope.CALL;
  }

  /** @return whether a {@code key} template can make it one instance per key value */
  public boolean isKeyed() {
    return this == CIRCUITBREAKER || this == RATELIMIT;
  }

  /**
   * The name of an attribute in configuration and in the config builder. Only the timeout's
   * {@code value}, which the annotation needs for {@code @Timeout("1s")}, is called something
   * else: {@code duration}.
   *
   * @param attribute the attribute as written in the annotation
   * @return its name as a property ({@code duration} for the timeout's {@code value})
   */
  public String property(String attribute) {
    return this == TIMEOUT && attribute.equals("value") ? "duration" : attribute;
  }

  /**
   * @param name the instance's name
   * @return an empty builder of this kind: every attribute at its default
   */
  public ConfigBuilder<?> builder(String name) {
    return builder.apply(name);
  }
}
