package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.generated.Attempt;
import dev.brace.runtime.internal.policy.RetryRun;

/**
 * The synchronous driver for calls given as a lambda ({@code Stack.call}): the same loop a
 * generated method has, over the same {@link CallGuard} steps, and no decision of its own.
 */
public final class SyncDriver {
  private SyncDriver() {}

  /**
   * The fallback of a synchronous call.
   *
   * @param <T> the result type
   */
  @FunctionalInterface
  public interface SyncFallback<T> {
    /**
     * @param failure the failure being answered
     * @return the fallback value
     * @throws Throwable the fallback's own failure
     */
    T apply(Throwable failure) throws Throwable;
  }

  /**
   * Runs {@code attempt} through every pattern of {@code guard}.
   *
   * @param guard the call's policies
   * @param attempt one attempt of the call
   * @param fallback answers a failure, or null
   * @param <T> the result type
   * @return the result, or the fallback's
   * @throws Throwable what ended the call, as itself
   */
  public static <T> T call(CallGuard guard, Attempt<T> attempt, SyncFallback<T> fallback) throws Throwable {
    return call(guard, null, null, attempt, fallback);
  }

  /**
   * Runs {@code attempt} of a keyed call through every pattern of {@code guard}.
   *
   * @param guard the call's policies
   * @param breakerKey the breaker's key, or null when it is not keyed
   * @param limiterKey the limiter's key, or null when it is not keyed
   * @param attempt one attempt of the call
   * @param fallback answers a failure, or null
   * @param <T> the result type
   * @return the result, or the fallback's
   * @throws Throwable what ended the call, as itself
   */
  public static <T> T call(
      CallGuard guard, String breakerKey, String limiterKey, Attempt<T> attempt, SyncFallback<T> fallback)
      throws Throwable {
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attemptNumber = 1; ; attemptNumber++) {
        try {
          Object permit = guard.admit(breakerKey, limiterKey);
          T result;
          try {
            result = guard.timed(attempt);
          } catch (Throwable failure) {
            guard.attemptFailed(permit, failure);
            throw failure;
          }
          guard.attemptSucceeded(permit, result);
          run = guard.retryResult(run, attemptNumber, started, result);
          if (run == null) {
            return result;
          }
        } catch (Throwable failure) {
          run = guard.retryOrThrow(run, attemptNumber, started, failure);
        }
      }
    } catch (Throwable failure) {
      if (fallback == null || !guard.fallsBack(failure)) {
        throw failure;
      }
      try {
        return fallback.apply(failure);
      } catch (Throwable fallbackFailure) {
        throw guard.fallbackFailed(fallbackFailure, failure);
      }
    }
  }
}
