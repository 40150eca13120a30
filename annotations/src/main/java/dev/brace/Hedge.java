package dev.brace;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Hedges a call against a slow answer: when no attempt has answered {@link #delay()} after the
 * last one started, one more attempt is sent, up to {@link #maxHedges()} of them, and the first
 * attempt that decides wins. Call-scoped: configured under the call name ({@code
 * Interface.method}) unless {@link #name()} says otherwise.
 *
 * <p>Hedge sits inside the retry and outside the circuit breaker, rate limiter, bulkhead and
 * timeout ({@code Fallback → StaleIfError → Retry → Hedge → CircuitBreaker → RateLimit → Bulkhead
 * → Timeout}), so
 * every attempt, the first included, passes through each of them on its own: a fresh breaker
 * ticket, a fresh token, a fresh permit, its own deadline. A hedge they refuse is not started; that
 * is not a failure.
 *
 * <p>An attempt decides when it returns, when it fails with an exception outside {@link #on()} (or
 * in {@link #ignore()}), or with an {@link Error}. Every other attempt still running is then
 * cancelled: an asynchronous attempt's future is cancelled, a synchronous attempt's thread is
 * interrupted. An attempt failing with an exception in {@code on} starts the next hedge at once
 * instead of after the delay. When every attempt fails, the last failure is thrown with the others
 * attached as suppressed exceptions, and a retry around the hedge may try the whole group again.
 *
 * <p>Synchronous methods run their attempts on worker threads (virtual threads on JDK 21 and
 * later) while the caller waits; asynchronous methods start each attempt as a further call of
 * the delegate, blocking no thread. Hedging multiplies the load a slow dependency sees: {@link
 * #budget()} caps it.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Hedge {

  /** {@return the configuration name} Empty means the call name ({@code Interface.method}). */
  String name() default "";

  /**
   * {@return how long to wait for an answer before starting one more attempt, a duration such as
   * {@code "100ms"}} Counted from the start of the latest attempt. {@code "0ms"} sends every hedge
   * at once.
   */
  String delay() default "100ms";

  /** {@return how many attempts may be started beyond the first} From 1 to 10. */
  int maxHedges() default 1;

  /**
   * {@return the exceptions after which the next hedge starts at once (looked up by
   * assignability)} A failure matches when it or one of its causes, at most 16 deep, is one of
   * them; a failure outside them decides the call. Brace's refusals ({@code
   * CircuitOpenException}, {@code RateLimitedException}, {@code BulkheadFullException}) from a
   * deeper call match only as themselves, when their exact class is listed.
   */
  Class<? extends Throwable>[] on() default {Exception.class};

  /** {@return the exceptions that decide the call, as the failure or any of its causes, even when it matches {@link #on()}} */
  Class<? extends Throwable>[] ignore() default {};

  /**
   * {@return the name of a shared retry budget that every hedge draws from, as a retry does} Empty
   * means none. When the budget is empty, no further hedge starts (event {@code
   * hedge.budget_exhausted}).
   */
  String budget() default "";
}
