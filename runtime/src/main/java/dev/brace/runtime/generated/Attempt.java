package dev.brace.runtime.generated;

/**
 * One synchronous attempt of a call, as generated code hands it to a timeout.
 *
 * @param <T> the result type (boxed)
 */
@FunctionalInterface
public interface Attempt<T> {
  /**
   * @return the result
   * @throws Throwable whatever the delegate throws, unchanged
   */
  T call() throws Throwable;
}
