package dev.brace.runtime.support;

/**
 * Calls a call's fallback method with the call's arguments and the failure it answers: one per
 * generated wrapper whose methods have {@code @Fallback}, switching on the method's number.
 */
@FunctionalInterface
public interface FallbackInvoker {
  /**
   * @param method the method's number in its wrapper
   * @param target the delegate (a static fallback method ignores it)
   * @param args the call's arguments
   * @param failure the failure the fallback answers: the exception that matched {@code on} (a cause
   *     of it, when only the cause fits the method's parameter), so it is always of a type the
   *     fallback method's parameter takes
   * @return the fallback's answer: a value, a {@code CompletionStage} for an asynchronous method, a
   *     publisher (or a value) for a reactive one
   * @throws Throwable the fallback's own failure
   */
  Object answer(int method, Object target, Arguments args, Throwable failure) throws Throwable;
}
