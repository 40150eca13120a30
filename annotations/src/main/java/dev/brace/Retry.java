package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.function.Predicate;

/**
 * Retries a failed call. Call-scoped: configured under the call name ({@code Interface.method})
 * unless {@link #name()} says otherwise.
 *
 * <p>Retry sits outside the circuit breaker, rate limiter, bulkhead and timeout, so every attempt
 * re-enters them. A refusal by those ({@code CircuitOpenException}, {@code RateLimitedException},
 * {@code BulkheadFullException}) is never retried unless its exact class is listed in {@link
 * #on()}; when listed, the next wait is at least the refusal's {@code retryAfter()}, capped by
 * {@link #maxRetryAfter()}. {@link Error}s are never retried.
 *
 * <p>When the attempts run out the last failure is rethrown as itself, with the earlier
 * failures attached as suppressed exceptions in the order they happened.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Retry {

  /** {@return the configuration name} Empty means the call name ({@code Interface.method}). */
  String name() default "";

  /** {@return the total number of tries, the first included} At least 1. */
  int maxAttempts() default 3;

  /** {@return the backoff before the first retry, a duration such as {@code "100ms"}} */
  String delay() default "100ms";

  /** {@return the cap on any one backoff, a duration} At least {@link #delay()}. */
  String maxDelay() default "30s";

  /** {@return the growth factor of the backoff per retry} Finite and at least 1.0. */
  double multiplier() default 2.0;

  /** {@return how the backoff before retry n is randomised} */
  Jitter jitter() default Jitter.FULL;

  /**
   * {@return the longest the whole call may spend retrying, measured from its start} No attempt
   * starts and no backoff is slept past it. Empty means no limit; otherwise at least {@link
   * #delay()}, and at least the {@code @Timeout} and the rate limiter's and bulkhead's {@code
   * maxWait} of the same call, so that one attempt fits in it.
   */
  String maxDuration() default "";

  /**
   * {@return the exceptions that are retried (looked up by assignability)} A failure matches when it
   * or one of its causes, at most 16 deep, is one of them.
   */
  Class<? extends Throwable>[] on() default {Exception.class};

  /** {@return the exceptions never retried, as the failure or any of its causes, even when it matches {@link #on()}} */
  Class<? extends Throwable>[] ignore() default {};

  /**
   * {@return a predicate over the result whose {@code test} returning true means "retry"} It needs a
   * public no-argument constructor and must accept the method's return type. When the attempts run
   * out the last result is returned. {@code Predicate.class} (the default) means results are never
   * retried.
   */
  @SuppressWarnings("rawtypes")
  Class<? extends Predicate> onResult() default Predicate.class;

  /** {@return the name of a shared retry budget that every retry draws from} Empty means none. */
  String budget() default "";

  /** {@return the cap on a wait raised by a {@code RetryAfterHint} (a server's or a refusal's)} */
  String maxRetryAfter() default "60s";

  /** The randomisation of backoffs. The cap before retry n is {@code min(maxDelay, delay · multiplier^(n-1))}. */
  enum Jitter {
    /** The cap itself, no randomness. */
    NONE,
    /** Uniform in {@code [0, cap]}: spreads retries the most (the AWS recommendation). */
    FULL,
    /** Half the cap fixed plus uniform in {@code [0, cap/2]}. */
    EQUAL,
    /** {@code min(maxDelay, uniform(delay, 3 · previous backoff))}. */
    DECORRELATED
  }
}
