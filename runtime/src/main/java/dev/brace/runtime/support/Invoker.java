package dev.brace.runtime.support;

/**
 * Calls the delegate's method with a call's arguments: one per generated method, a lambda that
 * captures nothing, such as {@code (target, args) -> ((Catalog) target).item((String) args.a())}.
 * A synchronous method's returns the result (boxed; null for {@code void}), an asynchronous one's
 * its {@code CompletionStage}, a reactive one's its publisher.
 */
@FunctionalInterface
public interface Invoker {
  /**
   * @param target the delegate
   * @param args the call's arguments
   * @return what the delegate's method returned
   * @throws Throwable whatever it threw, unchanged
   */
  Object invoke(Object target, Arguments args) throws Throwable;
}
