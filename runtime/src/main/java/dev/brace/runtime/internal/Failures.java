package dev.brace.runtime.internal;

/** Rethrowing a failure as itself, checked or not, from code that catches {@link Throwable}. */
public final class Failures {
  private Failures() {}

  /**
   * Throws {@code failure} unchanged. Generated code calls it only with what the delegate threw
   * (its declared checked exceptions or unchecked ones) or with Brace's unchecked exceptions, so
   * the method's {@code throws} clause stays true.
   *
   * @param failure the failure to throw
   * @return never returns; declared so call sites can write {@code throw Failures.rethrow(x)}
   */
  public static RuntimeException rethrow(Throwable failure) {
    throw Failures.<RuntimeException>sneaky(failure);
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable failure) throws T {
    throw (T) failure;
  }
}
