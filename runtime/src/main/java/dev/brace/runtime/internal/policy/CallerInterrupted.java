package dev.brace.runtime.internal.policy;

import dev.brace.runtime.ResilienceException;

/**
 * What a synchronous call ends with when its caller is interrupted while it waits for attempts
 * running on other threads (an {@code ABANDON} timeout's worker, hedged attempts). The caller's
 * interrupt flag is set again. It is the caller's own doing, not an outcome of the dependency:
 * no breaker records it, no retry retries it, no fallback answers it.
 */
public final class CallerInterrupted extends ResilienceException {
  private static final long serialVersionUID = 1L;

  /**
   * @param waitedFor what the caller waited for, e.g. {@code "'X.m' was interrupted while waiting
   *     for its abandoned attempt"}
   * @param cause the interrupt
   */
  public CallerInterrupted(String waitedFor, InterruptedException cause) {
    super(waitedFor, cause);
  }

  /**
   * @param failure what an attempt or a call ended with
   * @return whether it ended because its caller was interrupted while waiting
   */
  public static boolean is(Throwable failure) {
    return failure instanceof CallerInterrupted;
  }
}
