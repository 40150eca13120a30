package dev.brace.runtime.support;

/**
 * One attempt of a synchronous call: the delegate's method with the call's arguments.
 *
 * @param <T> the result type (boxed; {@code Void} for a {@code void} method)
 */
@FunctionalInterface
public interface SyncAttempt<T> {
  /**
   * @return the delegate's result
   * @throws Throwable whatever the delegate throws, unchanged
   */
  T call() throws Throwable;
}
