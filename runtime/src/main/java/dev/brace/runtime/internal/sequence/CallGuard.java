package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.generated.AsyncAttempt;
import dev.brace.runtime.generated.AsyncFallback;
import dev.brace.runtime.generated.Attempt;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DefaultCircuitBreaker;
import dev.brace.runtime.internal.policy.ExceptionFilter;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.internal.store.CircuitBreakers;
import dev.brace.runtime.internal.store.RateLimiters;

import dev.brace.runtime.Refusal;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * The resolved policies of one call, and the steps a driver takes through them. A generated
 * method (or a {@code Stack}) is a thin loop over these steps; every decision is made here or in
 * the policy the step delegates to, never in the driver. The order is fixed: fallback, retry,
 * circuit breaker, rate limiter, bulkhead, timeout, call.
 *
 * <p>The synchronous driver, in the shape generated code has:
 *
 * <pre>{@code
 * long started = guard.begin();
 * RetryRun run = null;
 * try {
 *   for (int attempt = 1; ; attempt++) {
 *     try {
 *       Object permit = guard.admit();            // breaker, limiter, bulkhead; throws a refusal
 *       R result;
 *       try {
 *         result = delegate.m(args);               // or guard.timed(() -> delegate.m(args))
 *       } catch (Throwable failure) {
 *         guard.attemptFailed(permit, failure);    // records it, releases the permits
 *         throw failure;
 *       }
 *       guard.attemptSucceeded(permit, result);    // or attemptSucceeded(permit) with no result predicate
 *       run = guard.retryResult(run, attempt, started, result);   // only with @Retry(onResult)
 *       if (run == null) return result;
 *     } catch (Throwable failure) {
 *       run = guard.retryOrThrow(run, attempt, started, failure);  // sleeps, or throws the final failure
 *     }
 *   }
 * } catch (Throwable failure) {
 *   if (!guard.fallsBack(failure)) throw Failures.rethrow(failure);
 *   try { return fallbackMethod(args, failure); }
 *   catch (Throwable fallbackFailure) { throw guard.fallbackFailed(fallbackFailure, failure); }
 * }
 * }</pre>
 *
 * Happy path cost: no allocation unless a timeout is configured.
 *
 * <p>The asynchronous driver is {@link #callAsync}: the same steps, with every wait scheduled
 * rather than slept (see {@link AsyncDriver}).
 */
public final class CallGuard {
  /** An attempt that reached the dependency returned; for listeners only. */
  static final String CALL_SUCCEEDED = "call.succeeded";
  /** An attempt that reached the dependency threw; for listeners only. */
  static final String CALL_FAILED = "call.failed";

  private final String callName;
  private final RetryPolicy retry;
  private final CircuitBreakers breakers;
  private final RateLimiters limiters;
  private final SemaphoreBulkhead bulkhead;
  private final TimeoutPolicy timeout;
  private final FallbackPolicy fallback;
  private final Supplier<ScheduledExecutorService> scheduler;
  private final EventBus events;

  public CallGuard(
      EventBus events,
      String callName,
      RetryPolicy retry,
      CircuitBreakers breakers,
      RateLimiters limiters,
      SemaphoreBulkhead bulkhead,
      TimeoutPolicy timeout,
      FallbackPolicy fallback,
      Supplier<ScheduledExecutorService> scheduler) {
    this.events = Objects.requireNonNull(events, "events");
    this.callName = Objects.requireNonNull(callName, "callName");
    this.retry = retry;
    this.breakers = breakers;
    this.limiters = limiters;
    this.bulkhead = bulkhead;
    this.timeout = timeout;
    this.fallback = fallback;
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  /** @return {@code Interface.method} */
  public String callName() {
    return callName;
  }

  public RetryPolicy retryPolicy() {
    return retry;
  }

  public TimeoutPolicy timeoutPolicy() {
    return timeout;
  }

  public FallbackPolicy fallbackPolicy() {
    return fallback;
  }

  /**
   * Starts a call: deposits into the retry budget, if any, and notes the start for {@code
   * maxDuration}.
   *
   * @return the start, to pass to the retry steps
   */
  public long begin() {
    return retry == null ? 0L : retry.begin();
  }

  /**
   * Admits one attempt of an unkeyed call: breaker, then limiter, then bulkhead. A refusal by the
   * limiter or bulkhead releases the breaker's ticket without an outcome.
   *
   * @return the permit to pass to {@link #attemptFailed} or {@link #attemptSucceeded}
   * @throws Refusal when refused; nothing is held then
   */
  public Object admit() {
    return admit(null, null);
  }

  /**
   * Admits one attempt of a keyed call.
   *
   * @param breakerKey the breaker's key, or null when it is not keyed
   * @param limiterKey the limiter's key, or null when it is not keyed
   * @return the permit to pass to {@link #attemptFailed} or {@link #attemptSucceeded}
   * @throws Refusal when refused; nothing is held then
   */
  public Object admit(String breakerKey, String limiterKey) {
    Object ticket = breakers == null ? null : breakers.forKey(breakerKey).acquire();
    try {
      if (limiters != null) {
        limiters.forKey(limiterKey).acquire();
      }
      if (bulkhead != null) {
        bulkhead.acquire();
      }
    } catch (Throwable refused) {
      if (ticket != null) {
        CircuitBreakerInstance.ownerOf(ticket).release(ticket);
      }
      throw refused;
    }
    return ticket;
  }

  /**
   * Runs one attempt under the timeout, if one is configured.
   *
   * @param attempt the call to the delegate
   * @param <T> the result type
   * @return the result
   * @throws Throwable what the delegate threw, or {@link
   *     dev.brace.runtime.TimeoutExceededException} at the deadline
   */
  public <T> T timed(Attempt<T> attempt) throws Throwable {
    return timeout == null ? attempt.call() : timeout.call(attempt);
  }

  /**
   * Records a failed attempt with the breaker (which decides whether it counts) and releases the
   * bulkhead permit.
   *
   * @param permit from {@link #admit()}
   * @param failure what the attempt threw
   */
  public void attemptFailed(Object permit, Throwable failure) {
    try {
      if (permit != null) {
        CircuitBreakerInstance.ownerOf(permit).onFailure(permit, failure);
      }
    } finally {
      releaseBulkhead();
    }
    if (events.metricsListening()) {
      reportOutcome(CALL_FAILED, permit, ExceptionFilter.unwrap(failure));
    }
  }

  /**
   * Records a successful attempt whose result is not inspected, and releases the bulkhead permit.
   *
   * @param permit from {@link #admit()}
   */
  public void attemptSucceeded(Object permit) {
    try {
      if (permit != null) {
        CircuitBreakerInstance.ownerOf(permit).onSuccess(permit);
      }
    } finally {
      releaseBulkhead();
    }
    if (events.metricsListening()) {
      reportOutcome(CALL_SUCCEEDED, permit, null);
    }
  }

  /**
   * Records a successful attempt, letting the breaker's result predicate count it as a failure,
   * and releases the bulkhead permit.
   *
   * @param permit from {@link #admit()}
   * @param result the attempt's result
   */
  public void attemptSucceeded(Object permit, Object result) {
    try {
      if (permit != null) {
        CircuitBreakerInstance.ownerOf(permit).onResult(permit, result);
      }
    } finally {
      releaseBulkhead();
    }
    if (events.metricsListening()) {
      reportOutcome(CALL_SUCCEEDED, permit, null);
    }
  }

  /**
   * Tells listeners (metrics) which instances an attempt that ran went through and how it ended.
   * Listener-only: a line per call is not worth logging, and with no listener it is never built.
   */
  private void reportOutcome(String kind, Object permit, Throwable failure) {
    events.emit(kind, callName,
        "circuitbreaker", permit == null ? null : DefaultCircuitBreaker.ownerOf(permit).name(),
        "ratelimit", limiters == null ? null : limiters.name(),
        "bulkhead", bulkhead == null ? null : bulkhead.name(),
        "timeout", timeout == null ? null : timeout.config().name(),
        "retry", retry == null ? null : retry.config().name(),
        "exception", failure == null ? null : failure.getClass().getName(),
        "message", failure == null ? null : failure.getMessage());
  }

  private void releaseBulkhead() {
    if (bulkhead != null) {
      bulkhead.release();
    }
  }

  /**
   * Decides what follows a failed attempt: waits out the backoff and returns to try again, or
   * throws the failure that ends the call (earlier failures attached as suppressed).
   *
   * @param run the state of earlier failures, or null after the first attempt
   * @param attempt the attempt that failed, from 1
   * @param started from {@link #begin()}
   * @param failure what the attempt threw (a refusal included)
   * @return the run to pass next time
   */
  public RetryRun retryOrThrow(RetryRun run, int attempt, long started, Throwable failure) {
    if (retry == null) {
      throw Failures.rethrow(failure);
    }
    return retry.afterFailure(run, attempt, started, failure);
  }

  /**
   * Decides whether a result is retried ({@code @Retry(onResult)}); when it is, waits out the
   * backoff.
   *
   * @param run the state of earlier failures, or null
   * @param attempt the attempt that returned, from 1
   * @param started from {@link #begin()}
   * @param result the result
   * @return the run to try again with, or null to return the result
   */
  public RetryRun retryResult(RetryRun run, int attempt, long started, Object result) {
    return retry == null ? null : retry.afterResult(run, attempt, started, result);
  }

  /**
   * @param failure what ended the call
   * @return whether the fallback answers it (never for an {@link Error})
   */
  public boolean fallsBack(Throwable failure) {
    return fallback != null && fallback.answers(failure);
  }

  /**
   * Throws the fallback's own failure with the original attached as suppressed.
   *
   * @param fallbackFailure what the fallback method threw
   * @param original the failure it was answering
   * @return never returns; declared so call sites can write {@code throw}
   */
  public RuntimeException fallbackFailed(Throwable fallbackFailure, Throwable original) {
    throw Failures.rethrow(withOriginal(fallbackFailure, original));
  }

  /** @return {@code fallbackFailure}, with {@code original} attached as suppressed */
  public static Throwable withOriginal(Throwable fallbackFailure, Throwable original) {
    if (fallbackFailure != original) {
      fallbackFailure.addSuppressed(original);
    }
    return fallbackFailure;
  }

  /**
   * Runs an asynchronous call of an unkeyed method through every pattern without blocking a
   * thread. See {@link #callAsync(String, String, AsyncAttempt, AsyncFallback)}.
   *
   * @param attempt starts one attempt
   * @param fallback answers a failure the fallback policy accepts, or null when the call has none
   * @param <T> the future's value type
   * @return the call's future; never null
   * @throws NullPointerException when {@code attempt} is null
   */
  public <T> CompletableFuture<T> callAsync(AsyncAttempt<T> attempt, AsyncFallback<T> fallback) {
    return callAsync(null, null, attempt, fallback);
  }

  /**
   * Runs an asynchronous call through every pattern, in the order of the synchronous driver,
   * without blocking a thread: retry backoff and the limiter's wait are scheduled delays, the
   * breaker records when an attempt's future completes, the bulkhead permit is held until then,
   * and the timeout completes the attempt at its deadline and cancels the delegate's future.
   * Every failure, refusals included, completes the returned future with the real cause (never a
   * {@code CompletionException}); nothing is thrown from here. Completing the returned future
   * from outside (cancelling it, for instance) stops the call: the attempt in flight is
   * cancelled, its permits released without a breaker outcome, and no retry follows.
   *
   * @param breakerKey the breaker's key, or null when it is not keyed
   * @param limiterKey the limiter's key, or null when it is not keyed
   * @param attempt starts one attempt; called once per attempt
   * @param fallback answers a failure the fallback policy accepts, or null when the call has none
   * @param <T> the future's value type
   * @return the call's future; never null
   * @throws NullPointerException when {@code attempt} is null
   */
  public <T> CompletableFuture<T> callAsync(
      String breakerKey, String limiterKey, AsyncAttempt<T> attempt, AsyncFallback<T> fallback) {
    Objects.requireNonNull(attempt, "attempt");
    return new AsyncDriver<>(this, breakerKey, limiterKey, attempt, fallback).start();
  }

  /** @return whether the call's breaker is one per key */
  public boolean breakerKeyed() {
    return breakers != null && breakers.isKeyed();
  }

  /** @return whether the call's rate limiter is one per key */
  public boolean limiterKeyed() {
    return limiters != null && limiters.isKeyed();
  }

  public ScheduledExecutorService scheduler() {
    return timeout != null ? timeout.scheduler() : scheduler.get();
  }

  public CircuitBreakers breakers() {
    return breakers;
  }

  public RateLimiters limiters() {
    return limiters;
  }

  public SemaphoreBulkhead bulkhead() {
    return bulkhead;
  }
}
