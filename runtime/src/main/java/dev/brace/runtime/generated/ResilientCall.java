package dev.brace.runtime.generated;

import dev.brace.runtime.internal.sequence.AsyncDriver;
import dev.brace.runtime.internal.sequence.CallSequence;
import dev.brace.runtime.internal.sequence.SyncDriver;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One call's policies, resolved by a registry ({@code Registry.resolve}); a generated method hands
 * its delegate call to it, and so does a {@code Stack}. Every decision is made in the runtime from
 * the call's configuration; this only chooses the synchronous or the asynchronous driver.
 *
 * <pre>{@code
 * public List<String> recommendations(String userId) throws IOException {
 *   return this.recommendations.call(
 *       () -> CallKeys.of(null, "user:" + CallKeys.part(userId, "userId", "RecsClient.recommendations")),
 *       () -> this.delegate.recommendations(userId),
 *       failure -> this.delegate.noRecs(userId, (IOException) failure));
 * }
 * }</pre>
 *
 * <p>Thread-safe. Not meant for hand-written code: use {@code Stack} there.
 */
public final class ResilientCall {
  private final CallSequence sequence;

  /**
   * @param sequence the resolved policies; the registry makes them
   * @throws NullPointerException when {@code sequence} is null
   */
  public ResilientCall(CallSequence sequence) {
    this.sequence = Objects.requireNonNull(sequence, "sequence");
  }

  /** @return {@code Interface.method}, or a stack's name */
  public String callName() {
    return sequence.callName();
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
    return SyncDriver.call(sequence, null, attempt, fallback);
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
    return SyncDriver.call(sequence, keys, attempt, fallback);
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
    return AsyncDriver.call(sequence, null, attempt, fallback);
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
    return AsyncDriver.call(sequence, keys, attempt, fallback);
  }

  /** @return whether the call's breaker is one per key (a {@code Stack} asks, to pass its key) */
  public boolean breakerKeyed() {
    return sequence.breakerKeyed();
  }

  /** @return whether the call's rate limiter is one per key */
  public boolean limiterKeyed() {
    return sequence.limiterKeyed();
  }
}
