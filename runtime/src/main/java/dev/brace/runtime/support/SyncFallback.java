package dev.brace.runtime.support;

/**
 * The fallback of a synchronous call.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface SyncFallback<T> {
  /**
   * @param failure the failure the fallback answers: the exception thrown (below its async
   *     wrappers), or, when the fallback method's parameter takes only the cause that matched
   *     {@code on}, that cause; so it is always of a type the parameter takes
   * @return the fallback value
   * @throws Throwable the fallback's own failure
   */
  T apply(Throwable failure) throws Throwable;
}
