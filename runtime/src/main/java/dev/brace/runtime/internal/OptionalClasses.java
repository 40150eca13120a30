package dev.brace.runtime.internal;

/**
 * Whether an optional library ({@code opentelemetry-api}, {@code context-propagation}) is on the
 * class path, asked without loading it. Callers ask once and keep the answer in a constant; only
 * then do they load the one class of theirs that names the library's types.
 */
public final class OptionalClasses {
  private OptionalClasses() {}

  /** @return whether {@code className} can be found by the runtime's class loader */
  public static boolean present(String className) {
    try {
      Class.forName(className, false, OptionalClasses.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError absent) {
      return false;
    }
  }
}
