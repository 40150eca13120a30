package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.Failures;
import dev.brace.runtime.internal.policy.FallbackPolicy;
import dev.brace.runtime.internal.policy.StaleAnswers;
import dev.brace.runtime.support.Arguments;
import java.util.concurrent.CompletableFuture;

/**
 * The fallback at the level of the call, written once for every driver: whether the fallback
 * method answers the failure that ends the call (and with which exception), calling it, and the
 * original failure attached to the fallback's own when it fails too. {@link FallbackPolicy}
 * decides which failures it answers; this is how the call asks it.
 *
 * <p>Its synchronous shape ({@link #answer}) returns the answer or throws; its asynchronous shape
 * ({@link #answerAsync}, {@link #failedAnswer}) gives the fallback's future, which the driver ties
 * to the caller's (cancelling it when the caller gives up). A driver outside the runtime takes the
 * same three steps through its {@link DriverExecution}.
 */
final class CallFallback {
  private CallFallback() {}

  /**
   * @param failure what ended the call
   * @return the exception the fallback method receives (the failure, or the cause that matched its
   *     {@code on} when only that fits the method's parameter), reported as {@code fallback.used};
   *     null when there is no fallback, it does not answer this failure, or the caller was interrupted
   */
  static Throwable answering(CallPolicies call, Throwable failure) {
    FallbackPolicy fallback = call.fallback();
    Throwable cause = answerable(fallback, failure);
    if (cause != null) {
      fallback.used(cause);
    }
    return cause;
  }

  /**
   * Whether the fallback answers, nothing recorded: what {@link #answering} decides, and what the
   * call's end is reported as decided by.
   *
   * @param fallback the call's fallback, or null
   * @param failure what ended the call
   * @return the exception the fallback is given, or null when it does not answer (none, a caller
   *     that stopped waiting, a failure it does not take)
   */
  static Throwable answerable(FallbackPolicy fallback, Throwable failure) {
    return fallback == null || StaleAnswers.callerStopped(failure) ? null : fallback.answerable(failure);
  }

  /**
   * Calls the fallback method.
   *
   * @param answering what {@link #answering} returned
   * @throws Throwable what the fallback threw
   */
  static Object call(CallPolicies call, Object target, Arguments arguments, Throwable answering) throws Throwable {
    return call.fallbackInvoker().answer(call.method(), target, arguments, answering);
  }

  /** @return {@code fallbackFailure}, with {@code original} attached as suppressed */
  static Throwable withOriginal(Throwable fallbackFailure, Throwable original) {
    if (fallbackFailure != original) {
      fallbackFailure.addSuppressed(original);
    }
    return fallbackFailure;
  }

  /**
   * The synchronous shape: the fallback's answer to the failure that ends the call. What ends the
   * call is thrown as itself, though this method declares nothing.
   *
   * @return the fallback's answer
   */
  static Object answer(CallFrame frame, Throwable failure) {
    Throwable answering = answering(frame.policies(), failure);
    if (answering == null) {
      throw Failures.rethrow(failure);
    }
    try {
      return frame.answer(answering);
    } catch (Throwable fallbackFailure) {
      throw Failures.rethrow(withOriginal(fallbackFailure, failure));
    }
  }

  /**
   * The asynchronous shape: the fallback's future for the failure that ends the call.
   *
   * @param answering what {@link #answering} returned
   * @return the future the fallback method returned
   * @throws Throwable what the fallback threw before returning a future, the original attached
   */
  static <T> CompletableFuture<T> answerAsync(CallFrame frame, Throwable answering, Throwable failure) throws Throwable {
    try {
      return AsyncAttempt.futureOf(frame.answer(answering), "the fallback of " + frame.policies().callName());
    } catch (Throwable fallbackFailure) {
      throw failedAnswer(fallbackFailure, failure);
    }
  }

  /** @return what the fallback's future failed with, looked through async wrappers, {@code original} attached */
  static Throwable failedAnswer(Throwable fallbackFailure, Throwable original) {
    return withOriginal(ExceptionFilter.unwrap(fallbackFailure), original);
  }
}
