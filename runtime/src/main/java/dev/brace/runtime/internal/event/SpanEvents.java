package dev.brace.runtime.internal.event;

import dev.brace.runtime.Event;
import dev.brace.runtime.internal.OptionalClasses;

/**
 * Adds events to the current OpenTelemetry span when {@code opentelemetry-api} is on the class
 * path. Whether it is is decided once, here; only then is {@link OpenTelemetrySpanEvents}, the one
 * class that names OpenTelemetry types, ever loaded, so the runtime works without the API.
 */
final class SpanEvents {
  private static final boolean PRESENT = OptionalClasses.present("io.opentelemetry.api.trace.Span");

  private SpanEvents() {}

  /** @return whether the current span would record an event */
  static boolean recording() {
    return PRESENT && OpenTelemetrySpanEvents.recording();
  }

  /** Adds an event (already redacted) to the current span, when one is recording. */
  static void add(Event event) {
    if (PRESENT) {
      OpenTelemetrySpanEvents.add(event);
    }
  }
}
