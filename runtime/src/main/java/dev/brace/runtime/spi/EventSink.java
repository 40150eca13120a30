package dev.brace.runtime.spi;

import dev.brace.runtime.EventKind;

/**
 * Where an instance reports what it did. Every event passes the registry's one boundary, which
 * redacts its attributes and hands it to loggers, traces and listeners.
 */
public interface EventSink {

  /**
   * @param kind the event
   * @return whether anyone would see it; check before building attributes on a hot path
   */
  boolean enabled(EventKind kind);

  /**
   * @param kind the event
   * @param instance the emitting instance's name
   * @param keysAndValues alternating attribute names and values; null values are left out
   */
  void emit(EventKind kind, String instance, Object... keysAndValues);
}
