package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.policy.StaleAnswers;
import dev.brace.runtime.support.CallKeys;
import java.util.concurrent.CompletableFuture;

/**
 * Remembered results ({@code @StaleIfError}) around a call's attempts, written once for both
 * drivers, their synchronous and asynchronous shapes side by side: a fresh remembered result
 * answers without the attempts; with single flight, a call that finds another call of its key in
 * flight takes that one's outcome instead (and goes round again if that one stopped without one);
 * the call's own result is remembered and shared with its followers; a failure may be answered
 * from memory. {@link StaleAnswers} keeps the results and decides each case; this is the order the
 * call asks it in.
 *
 * <p>The shapes differ only where the drivers do: the synchronous one waits on the caller's thread
 * for a leader's outcome and runs the attempts there ({@link SyncDriver}); the asynchronous one
 * goes on when the leader's future completes, and its driver ({@link AsyncDriver}, an {@link
 * AsyncCall}) keeps the flight it leads until the call ends.
 */
final class CallStaleAnswers {
  private CallStaleAnswers() {}

  /** @return the key the call's results are remembered under */
  static Object keyOf(CallKeys keys) {
    return StaleAnswers.keyOf(keys.stale());
  }

  /**
   * The call failed after every retry (or was refused): the failure goes to the flight's
   * followers, and a remembered result may answer it.
   *
   * @param flight the flight the call led, or null
   * @return the remembered result, or {@link StaleAnswers#NONE}: the failure goes on to the fallback
   */
  static Object answerFailure(CallPolicies call, Object key, Throwable failure, StaleAnswers.Flight flight) {
    return call.stale().answer(key, failure, flight, StaleAnswers.callerStopped(failure));
  }

  // ---- the synchronous shape ----

  /**
   * The call's attempts inside its remembered results, on the caller's thread.
   *
   * @return a remembered, shared or fresh result, or one answered from memory
   * @throws Throwable what ends the call when nothing remembered answers it
   */
  static Object call(CallFrame frame, CallKeys keys) throws Throwable {
    CallPolicies call = frame.policies();
    StaleAnswers stale = call.stale();
    Object key = keyOf(keys);
    StaleAnswers.Flight flight = null;
    while (true) {
      Object fresh = stale.fresh(key);
      if (fresh != StaleAnswers.NONE) {
        return fresh;
      }
      if (!stale.singleFlight()) {
        break;
      }
      flight = stale.lead(key);
      if (flight != null) {
        break;
      }
      CompletableFuture<Object> leader = stale.following(key);
      if (leader != null) {
        Object shared;
        try {
          shared = stale.await(leader);
        } catch (Throwable leaderFailure) {
          return answeredOrThrown(call, key, leaderFailure, null);
        }
        if (shared != StaleAnswers.NONE) {
          return shared;
        }
      }
    }
    Object result;
    try {
      result = SyncDriver.attempts(frame, keys, false, 0L, null);
    } catch (Throwable failure) {
      return answeredOrThrown(call, key, failure, flight);
    }
    stale.remember(key, result, flight);
    return result;
  }

  private static Object answeredOrThrown(CallPolicies call, Object key, Throwable failure, StaleAnswers.Flight flight)
      throws Throwable {
    Object answer = answerFailure(call, key, failure, flight);
    if (answer == StaleAnswers.NONE) {
      throw failure;
    }
    return answer;
  }

  // ---- the asynchronous shape ----

  /** What the asynchronous shape asks of its driver, which never waits on a thread. */
  interface AsyncCall {
    /** @return whether the call is over (it ended, or its caller gave up): nothing more is done */
    boolean over();

    /**
     * Keeps the flight the call now leads, to end it when the call ends.
     *
     * @return false when the call ended meanwhile: the flight is then abandoned, so that its
     *     followers call on their own
     */
    boolean leads(StaleAnswers.Flight flight);

    /** Goes on with {@link #followed} once the leader's outcome completes, in the caller's context. */
    void follow(CompletableFuture<Object> leader);

    /** The call returns {@code value}, remembered or shared: nothing more to remember. */
    void answered(Object value);

    /** The call ends with the leader's failure, which a remembered result or the fallback may answer. */
    void failedWith(Throwable failure);

    /** No remembered or shared result answers: the call begins its own attempts. */
    void attempts();
  }

  /**
   * A fresh remembered result answers at once; with single flight, a call that finds another call
   * of its key in flight completes with that one's outcome (its future depends on the leader's,
   * nothing waits); otherwise the attempts run.
   */
  static void callAsync(StaleAnswers stale, Object key, AsyncCall call) {
    while (!call.over()) {
      Object fresh = stale.fresh(key);
      if (fresh != StaleAnswers.NONE) {
        call.answered(fresh);
        return;
      }
      if (!stale.singleFlight()) {
        break;
      }
      StaleAnswers.Flight led = stale.lead(key);
      if (led != null) {
        if (!call.leads(led)) {
          // The caller gave up before this call could lead: its followers call on their own.
          return;
        }
        break;
      }
      CompletableFuture<Object> leader = stale.following(key);
      if (leader != null) {
        call.follow(leader);
        return;
      }
    }
    if (!call.over()) {
      call.attempts();
    }
  }

  /** The leader's outcome, shared; a leader that stopped without one sends the call round again. */
  static void followed(StaleAnswers stale, Object key, AsyncCall call, Object value, Throwable failure) {
    if (call.over()) {
      return;
    }
    if (StaleAnswers.abandoned(failure)) {
      callAsync(stale, key, call);
    } else if (failure == null) {
      call.answered(value);
    } else {
      call.failedWith(ExceptionFilter.unwrap(failure));
    }
  }
}
