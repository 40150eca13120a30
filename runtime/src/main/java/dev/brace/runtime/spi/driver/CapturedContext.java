package dev.brace.runtime.spi.driver;

/**
 * What a thread held for Brace when {@link ResolvedCall#captureContext()} took it: the SLF4J MDC,
 * the current deadline, the OpenTelemetry {@code Context} and the values of registered
 * context-propagation accessors. A driver whose work resumes on threads it does not choose (a
 * coroutine dispatcher's) installs it around each resumption, so the delegate sees the caller's
 * context and the attempt's deadline wherever it runs.
 *
 * <p>Immutable; safe to install on several threads at once.
 */
public interface CapturedContext {
  /** @return the captured context installed on this thread until the scope is closed */
  CallerScope enter();
}
