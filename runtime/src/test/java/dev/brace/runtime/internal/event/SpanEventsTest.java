package dev.brace.runtime.internal.event;

import dev.brace.runtime.support.LambdaCalls;

import dev.brace.runtime.EventKind;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.internal.sequence.SyncDriver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Events land on the active span, redacted, with nothing else listening (loggers are off in tests). */
class SpanEventsTest {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final Tracer tracer = provider.get("brace-test");

  @AfterEach
  void close() {
    provider.close();
  }

  @Test
  void aCircuitOpeningIsAnEventOnTheActiveSpan() {
    Registry registry = Registry.builder().timeSource(new ManualTimeSource()).build();
    ResilientCall guard = registry.resolve(LambdaCalls.builder("Client.get")
        .with(CircuitBreakerConfig.builder("recs-api").failureThreshold(1)).build());

    Span request = tracer.spanBuilder("GET /recommendations").startSpan();
    try (Scope ignored = request.makeCurrent()) {
      assertThrows(IOException.class, () -> LambdaCalls.call(guard, () -> {
        throw new IOException("GET https://u:p@host/x?api_key=abc failed");
      }, null));
    } finally {
      request.end();
    }

    List<SpanData> spans = exporter.getFinishedSpanItems();
    assertEquals(1, spans.size());
    List<EventData> events = spans.get(0).getEvents();
    assertEquals(1, events.size());
    EventData opened = events.get(0);
    assertEquals("circuit.opened", opened.getName());
    Attributes attributes = opened.getAttributes();
    assertEquals("recs-api", attributes.get(AttributeKey.stringKey("brace.instance")));
    assertEquals(1L, attributes.get(AttributeKey.longKey("failure_threshold")));
    assertEquals("java.io.IOException", attributes.get(AttributeKey.stringKey("exception")));
    assertEquals("GET https://host/x?api_key=REDACTED failed", attributes.get(AttributeKey.stringKey("message")));
  }

  @Test
  void onlyARecordingSpanEnablesEvents() {
    EventBus bus = new EventBus(Clock.systemUTC());
    assertFalse(bus.enabled(EventKind.of("circuit.opened")), "no span, no listener, loggers off");

    Span request = tracer.spanBuilder("request").startSpan();
    try (Scope ignored = request.makeCurrent()) {
      assertTrue(bus.enabled(EventKind.of("circuit.opened")));
      assertFalse(bus.enabled(EventKind.of("call.succeeded")), "per-call outcomes stay off spans");
      bus.emit(EventKind.of("ratelimit.rejected"), "quota", "retry_after_ms", 250L);
    } finally {
      request.end();
    }

    EventData rejected = exporter.getFinishedSpanItems().get(0).getEvents().get(0);
    assertEquals("ratelimit.rejected", rejected.getName());
    assertEquals(250L, rejected.getAttributes().get(AttributeKey.longKey("retry_after_ms")));
  }
}
