package dev.brace.runtime.support;

import java.util.concurrent.CompletionStage;

/**
 * Starts one attempt of an asynchronous call.
 *
 * @param <T> the future's value type
 */
@FunctionalInterface
public interface AsyncAttempt<T> {
  /**
   * @return the delegate's future
   * @throws Throwable a failure thrown before a future was returned; treated like a failed future
   */
  CompletionStage<T> start() throws Throwable;
}
