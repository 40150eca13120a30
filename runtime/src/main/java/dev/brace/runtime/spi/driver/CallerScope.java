package dev.brace.runtime.spi.driver;

/**
 * The caller's context (MDC, deadline, OpenTelemetry context, context-propagation values) installed
 * on the current thread by {@link CallExecution#enterCallersContext()}; closing it puts back what
 * the thread held before.
 */
public interface CallerScope extends AutoCloseable {
  /** Puts back what the thread held before; throws nothing checked. */
  @Override
  void close();
}
