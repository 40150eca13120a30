package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.generated.CallKeys;
import dev.brace.runtime.generated.SyncAttempt;
import dev.brace.runtime.generated.SyncFallback;
import dev.brace.runtime.internal.Failures;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.RetryRun;
import java.util.function.Supplier;

/**
 * The synchronous driver: walks a {@link CallSequence}'s steps on the caller's thread and sleeps
 * where a step says to wait. It decides nothing; generated methods and {@code Stack.call} both run
 * through it.
 *
 * <p>Kept small on purpose: the JIT inlines it into each generated method, so the lambdas a
 * generated method passes do not escape and the happy path allocates nothing.
 */
public final class SyncDriver {
  private SyncDriver() {}

  /**
   * Runs a call through every step of its sequence.
   *
   * @param sequence the call's policies
   * @param keys computes the call's keys, or null when nothing is keyed
   * @param attempt one attempt: the delegate's method with the call's arguments
   * @param fallback answers a failure the fallback accepts, or null when the call has none
   * @param <T> the result type
   * @return the result, or the fallback's
   */
  public static <T> T call(
      CallSequence sequence, Supplier<CallKeys> keys, SyncAttempt<T> attempt, SyncFallback<T> fallback) {
    if (sequence.passesThrough()) {
      return direct(attempt);
    }
    CallKeys callKeys = sequence.keys(keys);
    long started = sequence.begin();
    RetryRun run = null;
    for (int number = 1; ; number++) {
      Throwable failure;
      try {
        Object ticket = sequence.admit(callKeys);
        T result;
        try {
          result = sequence.timed(attempt);
        } catch (Throwable thrown) {
          sequence.attemptFailed(ticket, thrown);
          throw thrown;
        }
        sequence.attemptSucceeded(ticket, result);
        if (!sequence.retriesResult(result)) {
          return result;
        }
        run = sequence.retryRun(run);
        long delay = sequence.retryDelayForResult(run, number, started);
        if (delay == RetryPolicy.STOP || !sequence.sleep(delay)) {
          return result;
        }
        continue;
      } catch (Throwable thrown) {
        failure = thrown;
      }
      run = sequence.retryRun(run);
      long delay = sequence.retryDelay(run, number, started, failure);
      if (delay == RetryPolicy.STOP) {
        return finish(sequence, failure, fallback);
      }
      if (!sequence.sleep(delay)) {
        sequence.stoppedWaiting(run, failure);
        return finish(sequence, failure, fallback);
      }
      run.recordFailure(failure);
    }
  }

  /** The call ended with {@code failure}: the fallback answers it, or it propagates as itself. */
  private static <T> T finish(CallSequence sequence, Throwable failure, SyncFallback<T> fallback) {
    Throwable answered = fallback == null ? null : sequence.answerable(failure);
    if (answered == null) {
      throw Failures.rethrow(failure);
    }
    try {
      return fallback.apply(answered);
    } catch (Throwable fallbackFailure) {
      throw Failures.rethrow(CallSequence.withOriginal(fallbackFailure, failure));
    }
  }

  private static <T> T direct(SyncAttempt<T> attempt) {
    try {
      return attempt.call();
    } catch (Throwable thrown) {
      throw Failures.rethrow(thrown);
    }
  }
}
