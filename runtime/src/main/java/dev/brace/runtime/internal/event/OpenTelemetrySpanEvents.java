package dev.brace.runtime.internal.event;

import dev.brace.runtime.Event;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import java.util.Map;

/**
 * The only class that names OpenTelemetry types. Loaded only through {@link SpanEvents} after it
 * found the API on the class path.
 */
final class OpenTelemetrySpanEvents {
  /** The span attribute that carries {@link Event#instance()}. */
  static final String INSTANCE_ATTRIBUTE = "brace.instance";

  private OpenTelemetrySpanEvents() {}

  static boolean recording() {
    return Span.current().isRecording();
  }

  static void add(Event event) {
    Span span = Span.current();
    if (!span.isRecording()) {
      return;
    }
    AttributesBuilder attributes = Attributes.builder().put(INSTANCE_ATTRIBUTE, event.instance());
    for (Map.Entry<String, Object> attribute : event.attributes().entrySet()) {
      put(attributes, attribute.getKey(), attribute.getValue());
    }
    span.addEvent(event.kind(), attributes.build(), event.timestamp());
  }

  /** Numbers and booleans keep their type, so a backend can filter on them. */
  private static void put(AttributesBuilder attributes, String key, Object value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      attributes.put(AttributeKey.longKey(key), ((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      attributes.put(AttributeKey.doubleKey(key), ((Number) value).doubleValue());
    } else if (value instanceof Boolean) {
      attributes.put(AttributeKey.booleanKey(key), (Boolean) value);
    } else {
      attributes.put(AttributeKey.stringKey(key), String.valueOf(value));
    }
  }
}
