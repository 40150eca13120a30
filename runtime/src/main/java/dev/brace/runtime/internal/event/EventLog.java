package dev.brace.runtime.internal.event;

import dev.brace.runtime.Event;
import dev.brace.runtime.EventKind;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes events to SLF4J, each to its kind's logger at its kind's level ({@link EventKind}).
 * Loggers are looked up once per kind, so checking whether an event would be written allocates
 * nothing.
 */
final class EventLog {
  private static final Map<EventKind, Logger> LOGGERS = new EnumMap<>(EventKind.class);

  static {
    for (EventKind kind : EventKind.values()) {
      LOGGERS.put(kind, LoggerFactory.getLogger(kind.logger()));
    }
  }

  private EventLog() {}

  /** @return whether an event of this kind would be written */
  static boolean enabled(EventKind kind) {
    return !kind.isMetricsOnly() && LOGGERS.get(kind).isEnabledForLevel(kind.level());
  }

  /** Writes an event (already redacted) at its level, when that level is on. */
  static void write(EventKind kind, Event event) {
    if (enabled(kind)) {
      LOGGERS.get(kind).atLevel(kind.level()).log("{} {} {}", event.kind(), event.instance(), event.attributes());
    }
  }
}
