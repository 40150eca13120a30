package dev.brace.runtime.support;

import java.util.concurrent.CompletionStage;

/**
 * Turns what a delegate returns into the {@link CompletionStage} the asynchronous driver follows,
 * for a return type the runtime does not know: brace-reactor hands one to the driver per
 * subscription of a {@code Mono}, so that each attempt subscribes to the {@code Mono} the delegate
 * returned, with the subscriber's own Reactor {@code Context}, and cancelling the stage cancels
 * that subscription. Every step of the asynchronous call (retry, hedge, stale answers, breaker,
 * limiter, bulkhead, timeout, fallback) is then the one {@code CompletionStage} calls take.
 *
 * <p>Called on whichever thread runs the attempt (the subscriber's, the scheduler's), in the
 * caller's context.
 */
public interface StageAdapter {
  /**
   * @param returned what the delegate's method returned for one attempt
   * @return the attempt's outcome as a stage; cancelling it stops the attempt's work
   * @throws Throwable what makes the attempt fail at once (a null return, say)
   */
  CompletionStage<?> attempt(Object returned) throws Throwable;

  /**
   * @param answered what the fallback method returned
   * @return its answer as a stage
   * @throws Throwable what makes the fallback fail at once
   */
  CompletionStage<?> answer(Object answered) throws Throwable;
}
