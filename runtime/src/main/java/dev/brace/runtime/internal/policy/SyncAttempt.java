package dev.brace.runtime.internal.policy;

/**
 * One attempt of a synchronous call: the delegate's method with the call's arguments.
 */
@FunctionalInterface
public interface SyncAttempt {
  /**
   * @return the delegate's result (boxed; null for {@code void})
   * @throws Throwable whatever the delegate throws, unchanged
   */
  Object call() throws Throwable;

  /**
   * @return the same attempt, safe to run after the caller has moved on (an attempt a timeout
   *     abandons goes on running on its own thread); this one when it holds nothing the caller reuses
   */
  default SyncAttempt detached() {
    return this;
  }
}
