package dev.brace.runtime.support;

/**
 * The fallback of a synchronous call.
 *
 * @param <T> the result type
 */
@FunctionalInterface
public interface SyncFallback<T> {
  /**
   * @param failure the failure the fallback answers: the exception that matched {@code on} (for
   *     an async wrapper that was looked through, the cause that matched), so it is always of a
   *     type the fallback method's parameter takes
   * @return the fallback value
   * @throws Throwable the fallback's own failure
   */
  T apply(Throwable failure) throws Throwable;
}
