package dev.brace.runtime.internal.context;

import io.opentelemetry.context.Context;

/**
 * The only class of this package that names OpenTelemetry types; loaded by {@link CallContext} only
 * after it found the API on the class path, so the runtime works without it.
 */
final class OpenTelemetryContext {
  private OpenTelemetryContext() {}

  /** @return the current {@code Context}, or null when it is the root (nothing to carry) */
  static Object current() {
    Context current = Context.current();
    return current == Context.root() ? null : current;
  }

  /**
   * @param captured from {@link #current()}; null stands for the root
   * @return the scope that puts back the thread's own context, or null when it already held this one
   */
  static AutoCloseable makeCurrent(Object captured) {
    Context wanted = captured == null ? Context.root() : (Context) captured;
    if (Context.current() == wanted) {
      return null;
    }
    return wanted.makeCurrent();
  }
}
