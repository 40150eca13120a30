package dev.brace.runtime.internal.context;

import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import java.util.function.Predicate;

/**
 * The only class that names {@code io.micrometer:context-propagation} types; loaded by {@link
 * CallContext} only after it found the library on the class path.
 *
 * <p>Every {@code ThreadLocalAccessor} of the global {@code ContextRegistry} is carried, read at
 * each capture, so accessors registered after Brace started count too. Accessors with no value on
 * the caller's thread are cleared on the thread the call moves to ({@code clearMissing}), as the
 * caller had none. The SLF4J accessor is left out: {@link CallContext} carries the whole MDC itself,
 * and two restorers of one map would undo each other's work.
 */
final class PropagatedAccessors {
  private static final Predicate<Object> NOT_MDC = key -> !Slf4jThreadLocalAccessor.KEY.equals(key);

  private static final ContextSnapshotFactory SNAPSHOTS =
      ContextSnapshotFactory.builder()
          .contextRegistry(ContextRegistry.getInstance())
          .clearMissing(true)
          .captureKeyPredicate(NOT_MDC)
          .build();

  private PropagatedAccessors() {}

  /** @return a {@code ContextSnapshot} of the current thread, or null when no accessor is registered */
  static Object capture() {
    if (ContextRegistry.getInstance().getThreadLocalAccessors().isEmpty()) {
      return null;
    }
    return SNAPSHOTS.captureAll();
  }

  /** @return the scope that puts back the thread's own values */
  static AutoCloseable restore(Object snapshot) {
    return ((ContextSnapshot) snapshot).setThreadLocals(NOT_MDC);
  }
}
