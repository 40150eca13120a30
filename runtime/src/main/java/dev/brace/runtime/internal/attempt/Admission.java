package dev.brace.runtime.internal.attempt;

/**
 * The {@link AttemptPipeline}'s answer to "may this attempt start now?". Never a wait on the
 * asking thread: each driver waits in its own way (a synchronous one on its thread, an
 * asynchronous one on the scheduler) and asks again.
 */
public enum Admission {
  /** Admitted: the attempt's state holds the breaker's ticket, the token and the permit until the outcome. */
  ADMITTED,
  /**
   * Not yet: ask again after {@link AttemptState#waitNanos()} (a token is reserved and on its way,
   * or the bulkhead is full and its {@code maxWait} not spent). The attempt's state holds what was taken so
   * far; {@link AttemptPipeline#abandon} gives it back if the attempt stops waiting.
   */
  WAIT,
  /** Refused by this call's own breaker, limiter or bulkhead: {@link AttemptState#refusal()}; nothing is held. */
  REFUSED
}
