package dev.brace.runtime.support;

import java.util.concurrent.CompletionStage;

/**
 * The fallback of an asynchronous call. Generated code wraps a fallback method that returns a
 * plain value with {@code CompletableFuture.completedFuture}.
 *
 * @param <T> the future's value type
 */
@FunctionalInterface
public interface AsyncFallback<T> {
  /**
   * @param failure the failure the fallback answers, as for {@link SyncFallback#apply}
   * @return the fallback value
   * @throws Throwable the fallback's own failure
   */
  CompletionStage<T> apply(Throwable failure) throws Throwable;
}
