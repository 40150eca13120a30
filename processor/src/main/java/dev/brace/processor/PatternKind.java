package dev.brace.processor;

import dev.brace.Bulkhead;
import dev.brace.CircuitBreaker;
import dev.brace.Fallback;
import dev.brace.RateLimit;
import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import java.lang.annotation.Annotation;
import java.util.Set;

/**
 * The six patterns, outermost first (the order of the stack and of a call definition), with the
 * runtime config each one is written into.
 */
enum PatternKind {
  FALLBACK(Fallback.class, FallbackConfig.class, "fallback", "fallback", Scope.CALL),
  RETRY(Retry.class, RetryConfig.class, "retry", "retry", Scope.CALL),
  CIRCUIT_BREAKER(
      CircuitBreaker.class, CircuitBreakerConfig.class, "circuitBreaker", "circuit breaker", Scope.SYSTEM),
  RATE_LIMIT(RateLimit.class, RateLimitConfig.class, "rateLimit", "rate limiter", Scope.SYSTEM),
  BULKHEAD(Bulkhead.class, BulkheadConfig.class, "bulkhead", "bulkhead", Scope.SYSTEM),
  TIMEOUT(Timeout.class, TimeoutConfig.class, "timeout", "timeout", Scope.CALL);

  /** Whom an empty {@code name} stands for. */
  enum Scope {
    /** The call: {@code Interface.method}. */
    CALL,
    /** The dependency: the declaring interface's name, shared by every site that uses it. */
    SYSTEM
  }

  /** Attributes that are not written as a setter of the config. */
  private static final Set<String> NOT_SETTERS = Set.of("name", "method");

  private final Class<? extends Annotation> annotation;
  private final Class<?> config;
  private final String definitionStep;
  private final String description;
  private final Scope scope;

  PatternKind(
      Class<? extends Annotation> annotation,
      Class<?> config,
      String definitionStep,
      String description,
      Scope scope) {
    this.annotation = annotation;
    this.config = config;
    this.definitionStep = definitionStep;
    this.description = description;
    this.scope = scope;
  }

  /** @return the annotation's canonical name, e.g. {@code dev.brace.Retry} */
  String annotationName() {
    return annotation.getCanonicalName();
  }

  /** @return the annotation's simple name, for messages */
  String simpleName() {
    return annotation.getSimpleName();
  }

  /** @return the runtime config class whose {@code builder(name)} takes the attributes */
  Class<?> config() {
    return config;
  }

  /** @return the step of {@code CallDefinition.Builder} that takes this pattern */
  String definitionStep() {
    return definitionStep;
  }

  /** @return how messages call an instance: "circuit breaker", "retry", … */
  String description() {
    return description;
  }

  Scope scope() {
    return scope;
  }

  /** @return whether the attribute is written as a setter of the same name (or {@link #setter}) */
  boolean isSetter(String attribute) {
    return !NOT_SETTERS.contains(attribute);
  }

  /** @return the config setter of an attribute: the timeout's {@code value} is its duration */
  String setter(String attribute) {
    return this == TIMEOUT && attribute.equals("value") ? "duration" : attribute;
  }

  /** @return whether the annotation has a {@code key} template attribute */
  boolean isKeyed() {
    return this == CIRCUIT_BREAKER || this == RATE_LIMIT;
  }
}
