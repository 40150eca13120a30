package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.SyncAttempt;
import dev.brace.runtime.support.SyncFallback;
import dev.brace.runtime.internal.Failures;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.policy.StaleAnswers;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The synchronous driver: walks a {@link CallSequence}'s steps on the caller's thread and sleeps
 * where a step says to wait. It decides nothing.
 *
 * <p>A generated method runs the same loop over the same steps in its own body (through {@code
 * ResilientCall}'s step methods) rather than calling {@link #call}: handing the delegate call over
 * as a lambda would allocate it on every call, because the JIT does not inline a driver this size
 * that every wrapper shares. {@code Stack.call} uses {@link #call}, and so does a generated method
 * with {@code @StaleIfError}, whose happy path stores its result anyway; the conformance matrix
 * runs both against the same scenarios.
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
    try {
      return sequence.remembersAnswers() ? remembered(sequence, callKeys, attempt) : attempts(sequence, callKeys, attempt);
    } catch (Throwable failure) {
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
  }

  /**
   * Every attempt the retry allows, each through breaker, limiter, bulkhead and timeout (a hedged
   * group of them where the call has a hedge).
   */
  private static <T> T attempts(CallSequence sequence, CallKeys callKeys, SyncAttempt<T> attempt) throws Throwable {
    long started = sequence.begin();
    RetryRun run = null;
    for (int number = 1; ; number++) {
      try {
        T result = attempt(sequence, callKeys, attempt);
        run = afterResult(sequence, run, number, started, result);
        if (run == null) {
          return result;
        }
      } catch (Throwable failure) {
        run = afterFailure(sequence, run, number, started, failure);
      }
    }
  }

  /**
   * The attempts inside {@code @StaleIfError}: a fresh remembered result answers without them;
   * with single flight, a call that finds another call of its key in flight waits for that one's
   * outcome instead (and tries again itself if that one stopped without one); a result is
   * remembered; a failure may be answered from memory.
   */
  @SuppressWarnings("unchecked")
  private static <T> T remembered(CallSequence sequence, CallKeys callKeys, SyncAttempt<T> attempt) throws Throwable {
    Object key = sequence.staleKey(callKeys);
    StaleAnswers.Flight flight = null;
    while (true) {
      Object fresh = sequence.freshAnswer(key);
      if (fresh != StaleAnswers.NONE) {
        return (T) fresh;
      }
      if (!sequence.singleFlight()) {
        break;
      }
      flight = sequence.lead(key);
      if (flight != null) {
        break;
      }
      CompletableFuture<Object> leader = sequence.following(key);
      if (leader != null) {
        Object shared;
        try {
          shared = sequence.awaitLeader(leader);
        } catch (Throwable leaderFailure) {
          return answeredOrThrown(sequence, key, leaderFailure, null);
        }
        if (shared != StaleAnswers.NONE) {
          return (T) shared;
        }
      }
    }
    T result;
    try {
      result = attempts(sequence, callKeys, attempt);
    } catch (Throwable failure) {
      return answeredOrThrown(sequence, key, failure, flight);
    }
    sequence.succeeded(key, result, flight);
    return result;
  }

  @SuppressWarnings("unchecked")
  private static <T> T answeredOrThrown(CallSequence sequence, Object key, Throwable failure, StaleAnswers.Flight flight)
      throws Throwable {
    Object answer = sequence.staleAnswer(key, failure, flight);
    if (answer == StaleAnswers.NONE) {
      throw failure;
    }
    return (T) answer;
  }

  /**
   * One attempt as the retry sees it: breaker, limiter, bulkhead and timeout on this thread; or,
   * when the call is hedged, a group of attempts on worker threads that take those steps each on
   * its own, while this thread waits for the one that decides.
   *
   * @param sequence the call's policies
   * @param keys the call's keys
   * @param attempt one attempt: the delegate's method with the call's arguments
   * @return the deciding attempt's result
   * @throws Throwable the refusal, the deciding failure, or the hedge's last failure with the
   *     others attached
   */
  public static <T> T attempt(CallSequence sequence, CallKeys keys, SyncAttempt<T> attempt) throws Throwable {
    if (sequence.hedged()) {
      return SyncHedgeGroup.run(sequence, keys, attempt);
    }
    Object ticket = sequence.admit(keys);
    T result;
    try {
      result = sequence.timed(attempt);
    } catch (Throwable failure) {
      sequence.attemptFailed(ticket, failure);
      throw failure;
    }
    sequence.attemptSucceeded(ticket, result);
    return result;
  }

  /**
   * After a result: when the retry asks to try again, sleeps the backoff and returns the run;
   * otherwise (no retry, no predicate, predicate false, attempts or time spent, interrupted)
   * returns null and the result is the call's.
   *
   * @throws RuntimeException what the result predicate threw: the attempt then failed
   */
  public static RetryRun afterResult(CallSequence sequence, RetryRun run, int number, long started, Object result) {
    if (!sequence.retriesResult(result)) {
      sequence.ended(started, null);
      return null;
    }
    RetryRun continuing = sequence.retryRun(run);
    long delay = sequence.retryDelayForResult(continuing, number, started);
    if (delay == RetryPolicy.STOP || !sequence.sleep(delay)) {
      sequence.ended(started, null);
      return null;
    }
    return continuing;
  }

  /**
   * After a failed attempt (a refusal included): sleeps the backoff and returns the run to try
   * again with, or throws the failure that ends the call, earlier failures attached.
   */
  public static RetryRun afterFailure(CallSequence sequence, RetryRun run, int number, long started, Throwable failure) {
    RetryRun continuing = sequence.retryRun(run);
    long delay = sequence.retryDelay(continuing, number, started, failure);
    if (delay == RetryPolicy.STOP) {
      sequence.ended(started, failure);
      throw Failures.rethrow(failure);
    }
    if (!sequence.sleep(delay)) {
      sequence.stoppedWaiting(continuing, failure);
      sequence.ended(started, failure);
      throw Failures.rethrow(failure);
    }
    continuing.recordFailure(failure);
    return continuing;
  }

  private static <T> T direct(SyncAttempt<T> attempt) {
    try {
      return attempt.call();
    } catch (Throwable thrown) {
      throw Failures.rethrow(thrown);
    }
  }
}
