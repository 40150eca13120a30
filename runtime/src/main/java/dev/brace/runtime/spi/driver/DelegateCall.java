package dev.brace.runtime.spi.driver;

/**
 * One call of the delegate's method with the call's arguments: what an attempt runs, once it is
 * admitted, through {@link CallExecution#launch}. A driver makes one per attempt (or reuses one
 * that holds nothing of a single attempt); the runtime runs it under the attempt's bound and puts
 * fault injection in front of it where the call has some.
 */
@FunctionalInterface
public interface DelegateCall {
  /**
   * @return what the delegate's method returned (boxed; null for {@code void}); for a driver of a
   *     deferred type, the value that stands for the attempt's work (a {@code Mono}, a {@code Flux})
   * @throws Throwable whatever the delegate throws, unchanged
   */
  Object call() throws Throwable;

  /**
   * @return the same call, safe to run after the caller has moved on (an attempt a timeout
   *     abandons goes on running on its own thread, and an injected latency runs it later); this
   *     one when it holds nothing the caller reuses
   */
  default DelegateCall detached() {
    return this;
  }
}
