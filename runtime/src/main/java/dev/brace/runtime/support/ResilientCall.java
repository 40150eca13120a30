package dev.brace.runtime.support;

import dev.brace.runtime.internal.Failures;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.AsyncDriver;
import dev.brace.runtime.internal.sequence.CallSequence;
import dev.brace.runtime.internal.sequence.SyncDriver;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One call's policies, resolved by a registry ({@code Registry.resolve}). Every decision is made in
 * the runtime from the call's configuration, read at call time.
 *
 * <p>A generated asynchronous method, and a {@code Stack}, hand the delegate call over as a lambda
 * ({@link #callAsync}, {@link #call}). A generated synchronous method instead walks the steps in
 * its own body — the same loop as {@link #call}, over the same steps, deciding nothing — so that
 * the happy path allocates nothing (a lambda that captures the arguments would be allocated on
 * every call, since the JIT does not inline a shared driver of this size into each method):
 *
 * <pre>{@code
 * ResilientCall call = this.recommendations.current();
 * if (call.passesThrough()) return this.delegate.recommendations(userId);
 * CallKeys keys = CallKeys.of(null, "user:" + CallKeys.part(userId, "userId", "RecsClient.recommendations"));
 * long started = call.begin();
 * Object run = null;
 * try {
 *   for (int attempt = 1; ; attempt++) {
 *     try {
 *       Object ticket = call.admit(keys);                  // breaker, limiter, bulkhead; throws a refusal
 *       List<String> result;
 *       try {
 *         result = this.delegate.recommendations(userId);  // call.timed(() -> ...) with a timeout
 *       } catch (Throwable failure) {
 *         call.attemptFailed(ticket, failure);
 *         throw failure;
 *       }
 *       call.attemptSucceeded(ticket, result);
 *       run = call.retryResult(run, attempt, started, result);
 *       if (run == null) return result;
 *     } catch (Throwable failure) {
 *       run = call.retryOrThrow(run, attempt, started, failure);  // sleeps, or throws what ends the call
 *     }
 *   }
 * } catch (Throwable failure) {                            // only with @Fallback
 *   Throwable cause = call.answerable(failure);
 *   if (cause == null) throw ResilientCall.rethrow(failure);
 *   try { return this.delegate.noRecs(userId, (IOException) cause); }
 *   catch (Throwable fallbackFailure) { throw call.fallbackFailed(fallbackFailure, failure); }
 * }
 * }</pre>
 *
 * <p>A registry's reconfiguration gives a call new policies ({@link #switchTo}); a call that has
 * started finishes on the policies it started with. {@link #call} and {@link #callAsync} read them
 * once per call; a generated method reads them once through {@link #current()} and walks the steps
 * on what it returned, so no call runs half on the old and half on the new policies.
 *
 * <p>Thread-safe. Not meant for hand-written code: use {@code Stack} there.
 */
public final class ResilientCall {
  private final CallSequence sequence;
  /** This call's policies as they are now: itself until a reconfiguration gives new ones. */
  private volatile ResilientCall current = this;

  /**
   * @param sequence the resolved policies; the registry makes them
   * @throws NullPointerException when {@code sequence} is null
   */
  public ResilientCall(CallSequence sequence) {
    this.sequence = Objects.requireNonNull(sequence, "sequence");
  }

  /**
   * @return the call with its policies as they are now; walk one call's steps on it, so a
   *     reconfiguration in the middle of the call does not change them
   */
  public ResilientCall current() {
    return current;
  }

  /**
   * Gives calls that start from now on new policies; calls already running keep theirs. The
   * registry calls it when it is reconfigured.
   *
   * @param next the policies resolved under the new configuration
   * @throws NullPointerException when {@code next} is null
   */
  public void switchTo(CallSequence next) {
    current = new ResilientCall(next);
  }

  /** @return {@code Interface.method}, or a stack's name */
  public String callName() {
    return current.sequence.callName();
  }

  /**
   * Runs a synchronous call whose instances are not keyed. What ends the call is thrown as itself
   * (the delegate's checked exceptions included, unwrapped), though this method declares none: the
   * generated method declares what its delegate may throw.
   *
   * @param attempt one attempt: the delegate's method with the call's arguments
   * @param fallback answers a failure the fallback accepts, or null when the call has none
   * @param <T> the result type
   * @return the result, or the fallback's
   */
  public <T> T call(SyncAttempt<T> attempt, SyncFallback<T> fallback) {
    return SyncDriver.call(current.sequence, null, attempt, fallback);
  }

  /**
   * Runs a synchronous call with keyed instances; the keys are computed once, before any pattern
   * (a null part fails the call at once), and not at all when Brace is switched off.
   *
   * @param keys computes the call's keys from its arguments
   * @param attempt one attempt
   * @param fallback answers a failure the fallback accepts, or null
   * @param <T> the result type
   * @return the result, or the fallback's
   */
  public <T> T call(Supplier<CallKeys> keys, SyncAttempt<T> attempt, SyncFallback<T> fallback) {
    return SyncDriver.call(current.sequence, keys, attempt, fallback);
  }

  /**
   * Runs an asynchronous call whose instances are not keyed, without blocking a thread. Nothing
   * is thrown: every failure, refusals included, completes the returned future exceptionally.
   *
   * @param attempt starts one attempt; a throw or a null future is a failed attempt
   * @param fallback answers a failure the fallback accepts, or null when the call has none
   * @param <T> the future's value type
   * @return the call's future
   */
  public <T> CompletableFuture<T> callAsync(AsyncAttempt<T> attempt, AsyncFallback<T> fallback) {
    return AsyncDriver.call(current.sequence, null, attempt, fallback);
  }

  /**
   * Runs an asynchronous call with keyed instances; the keys are computed inside the call, so a
   * null part fails the returned future.
   *
   * @param keys computes the call's keys from its arguments
   * @param attempt starts one attempt
   * @param fallback answers a failure the fallback accepts, or null
   * @param <T> the future's value type
   * @return the call's future
   */
  public <T> CompletableFuture<T> callAsync(
      Supplier<CallKeys> keys, AsyncAttempt<T> attempt, AsyncFallback<T> fallback) {
    return AsyncDriver.call(current.sequence, keys, attempt, fallback);
  }

  // ---- the steps a generated synchronous method walks, on what current() returned ----

  /** @return whether Brace is switched off for this call: call the delegate as it is, compute no keys */
  public boolean passesThrough() {
    return sequence.passesThrough();
  }

  /**
   * Starts a call: deposits into the retry budget, if any, and notes the start for {@code maxDuration}.
   *
   * @return the start, for {@link #retryResult} and {@link #retryOrThrow}
   */
  public long begin() {
    return sequence.begin();
  }

  /**
   * Admits one attempt: breaker, limiter, bulkhead. A refusal holds nothing.
   *
   * @param keys the call's keys ({@link CallKeys#NONE} when nothing is keyed)
   * @return the ticket to pass to the attempt's outcome
   * @throws RuntimeException the refusal
   */
  public Object admit(CallKeys keys) {
    return sequence.admit(keys);
  }

  /**
   * Runs one attempt under the call's timeout (directly when configuration switched it off).
   *
   * @param attempt the delegate call
   * @param <T> the result type
   * @return its result
   * @throws Throwable what it threw, or {@link dev.brace.runtime.TimeoutExceededException}
   */
  public <T> T timed(SyncAttempt<T> attempt) throws Throwable {
    return sequence.timed(attempt);
  }

  /**
   * One attempt of a method with {@code @Hedge}, as its retry sees it: a group of attempts on
   * worker threads, each through breaker, limiter, bulkhead and timeout on its own, while this
   * thread waits for the one that decides (a single attempt on this thread when configuration
   * switched the hedge off). It takes the place of {@link #admit}, {@link #timed} and the outcome
   * in the loop of a generated method.
   *
   * @param keys the call's keys ({@link CallKeys#NONE} when nothing is keyed)
   * @param attempt the delegate call
   * @param <T> the result type
   * @return the deciding attempt's result
   * @throws Throwable a refusal, the deciding failure, or the last failure with the others attached
   */
  public <T> T hedged(CallKeys keys, SyncAttempt<T> attempt) throws Throwable {
    return SyncDriver.attempt(sequence, keys, attempt);
  }

  /**
   * Records a returned attempt and releases what admission took.
   *
   * @param ticket from {@link #admit}
   * @param result what the delegate returned (null for {@code void})
   * @throws RuntimeException what the breaker's result predicate threw: the attempt failed
   */
  public void attemptSucceeded(Object ticket, Object result) {
    sequence.attemptSucceeded(ticket, result);
  }

  /**
   * Records a failed attempt and releases what admission took.
   *
   * @param ticket from {@link #admit}
   * @param failure what the delegate threw
   */
  public void attemptFailed(Object ticket, Throwable failure) {
    sequence.attemptFailed(ticket, failure);
  }

  /**
   * After a result: when the retry asks to try it again, sleeps the backoff.
   *
   * @param run the call's retry state, null at first
   * @param attempt the attempt that returned, from 1
   * @param started from {@link #begin}
   * @param result what it returned
   * @return the state to try again with, or null: the result is the call's
   */
  public Object retryResult(Object run, int attempt, long started, Object result) {
    return SyncDriver.afterResult(sequence, (RetryRun) run, attempt, started, result);
  }

  /**
   * After a failed attempt (a refusal included): sleeps the backoff, or throws the failure that
   * ends the call (as itself, earlier failures attached as suppressed).
   *
   * @param run the call's retry state, null at first
   * @param attempt the attempt that failed, from 1
   * @param started from {@link #begin}
   * @param failure what it threw
   * @return the state to try again with
   */
  public Object retryOrThrow(Object run, int attempt, long started, Throwable failure) {
    return SyncDriver.afterFailure(sequence, (RetryRun) run, attempt, started, failure);
  }

  /**
   * @param failure what ended the call
   * @return the exception the fallback answers (what matched its {@code on}, looked through async
   *     wrappers, so the fallback method's parameter takes it), or null: the failure propagates
   */
  public Throwable answerable(Throwable failure) {
    return sequence.answerable(failure);
  }

  /**
   * @param fallbackFailure what the fallback method threw
   * @param original the failure it answered
   * @return never returns: throws {@code fallbackFailure} with {@code original} attached
   */
  public RuntimeException fallbackFailed(Throwable fallbackFailure, Throwable original) {
    throw Failures.rethrow(CallSequence.withOriginal(fallbackFailure, original));
  }

  /**
   * Throws a failure as itself, checked or not: a generated method only ever rethrows what its
   * delegate threw (its declared exceptions) or Brace's unchecked ones.
   *
   * @param failure the failure
   * @return never returns; declared so a call site can write {@code throw}
   */
  public static RuntimeException rethrow(Throwable failure) {
    throw Failures.rethrow(failure);
  }

  /** @return whether the call's breaker is one per key (a {@code Stack} asks, to pass its key) */
  public boolean breakerKeyed() {
    return current.sequence.breakerKeyed();
  }

  /** @return whether the call's rate limiter is one per key */
  public boolean limiterKeyed() {
    return current.sequence.limiterKeyed();
  }

  /** @return whether the call remembers its results per key ({@code @StaleIfError}), so a {@code Stack} passes its key */
  public boolean remembersAnswers() {
    return sequence.remembersAnswers();
  }
}
