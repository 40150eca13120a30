package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.function.Predicate;

/**
 * Stops calling a dependency that keeps failing. System-scoped: every call site that uses the same
 * {@link #name()} shares one circuit.
 *
 * <p>Classic mode (the default) opens after {@link #failureThreshold()} consecutive counted
 * failures. Setting {@link #failureRate()} switches to rate mode: the circuit opens when, with at
 * least {@link #minimumCalls()} outcomes in the rolling window, the failure rate reaches the
 * threshold. While open every call is refused with {@code CircuitOpenException} without reaching
 * the dependency. After {@link #resetTimeout()}, counted from the moment the failing call
 * returned, the next call is admitted as the single probe (half-open); {@link
 * #successThreshold()} consecutive probe successes close the circuit, a probe failure re-opens it.
 *
 * <p>A counted failure is an exception matching {@link #on()} and not {@link #ignore()} (a
 * timeout of this call included), or a result for which {@link #onResult()} is true. Refusals by
 * the same wrapper's rate limiter or bulkhead are never counted.
 *
 * <p>Setting {@link #slowCall()} also judges latency: every outcome records whether the attempt
 * took longer than it, in the same rolling window as rate mode (whatever {@link #failureRate()}
 * is), and the circuit opens when, with at least {@link #minimumCalls()} outcomes in the window,
 * the share of slow ones reaches {@link #slowCallRate()}. A half-open probe slower than {@link
 * #slowCall()} is a failed probe.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface CircuitBreaker {

  /** {@return the circuit's name} Empty means the interface's simple name ({@code Outer.Inner} if nested). */
  String name() default "";

  /** {@return the consecutive counted failures that open the circuit in classic mode} At least 1. */
  int failureThreshold() default 5;

  /** {@return the consecutive probe successes that close a half-open circuit} At least 1. */
  int successThreshold() default 1;

  /** {@return how long the circuit stays open before it admits a probe, a duration} */
  String resetTimeout() default "30s";

  /** {@return the failure rate in (0, 1] that opens the circuit in rate mode} 0 means classic mode. */
  double failureRate() default 0;

  /** {@return the rolling window of rate mode as a time span, a duration} */
  String window() default "30s";

  /** {@return the size N of a rate-mode window of the last N outcomes} 0 means a time span instead. */
  int windowCalls() default 0;

  /** {@return the outcomes the window must hold before the rate is judged} At least 1. */
  int minimumCalls() default 20;

  /** {@return the counters the time window is split into (constant memory)} At least 1. */
  int windowBuckets() default 10;

  /** {@return the exceptions that count as failures, as the failure itself or one of its causes (at most 16 deep)} */
  Class<? extends Throwable>[] on() default {Exception.class};

  /** {@return the exceptions that never count, as the failure or any of its causes, even when it matches {@link #on()}} */
  Class<? extends Throwable>[] ignore() default {};

  /**
   * {@return a predicate over the result whose {@code test} returning true counts the result as a
   * failure} {@code Predicate.class} (the default) means no result is a failure.
   */
  @SuppressWarnings("rawtypes")
  Class<? extends Predicate> onResult() default Predicate.class;

  /** {@return a key template ({@code "{param}"}, {@code "host:{request.host}"}) for one circuit per key} */
  String key() default "";

  /** {@return the most keys kept for a keyed circuit breaker} The least recently used idle one goes first. */
  int maxKeys() default 10000;

  /**
   * {@return how long an attempt may take before it counts as slow, a duration} Empty (the
   * default) means latency is not judged.
   */
  String slowCall() default "";

  /** {@return the share of slow outcomes in (0, 1] that opens the circuit} Used with {@link #slowCall()}. */
  double slowCallRate() default 1.0;
}
