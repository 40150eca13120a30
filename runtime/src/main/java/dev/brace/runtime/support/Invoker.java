package dev.brace.runtime.support;

/**
 * Calls the delegate's method with a call's arguments. A generated wrapper has one, a static method
 * that switches on the method's number and casts the arguments back; it returns the result (boxed;
 * null for {@code void}) of a synchronous method, the {@code CompletionStage} of an asynchronous one,
 * the publisher of a reactive one.
 */
@FunctionalInterface
public interface Invoker {
  /**
   * @param method the method's number in its wrapper ({@code CallDefinition.method()})
   * @param target the delegate
   * @param args the call's arguments
   * @return what the delegate's method returned
   * @throws Throwable whatever it threw, unchanged
   */
  Object invoke(int method, Object target, Arguments args) throws Throwable;
}
