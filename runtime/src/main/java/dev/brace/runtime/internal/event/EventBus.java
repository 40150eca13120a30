package dev.brace.runtime.internal.event;

import dev.brace.runtime.Event;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.metrics.BoundMetrics;
import dev.brace.runtime.metrics.MetricsListener;
import dev.brace.runtime.spi.EventSink;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * The one boundary every event passes. It redacts every attribute (see {@link Redactor}) and then
 * fans out to the SLF4J loggers {@code dev.brace.<pattern>} ({@link EventLog}), to the current
 * OpenTelemetry span when the API is present ({@link SpanEvents}), and to subscribed listeners.
 * Because redaction happens here, no emitting policy can leak a secret by forgetting it.
 *
 * <p>Callers check {@link #enabled(EventKind)} first. With no listener, the event's logger off and
 * no recording span, that is false, and the check reads one volatile field, tests a log level and
 * looks at the current span: nothing is allocated.
 *
 * <p>Metrics-only kinds ({@link EventKind#isMetricsOnly()}) go only to listeners subscribed with
 * {@link #subscribeForMetrics}: they fire once per attempt or per created instance, which no log,
 * trace or ordinary listener wants, and only a metrics binder pays for them.
 *
 * <p>Meters are fed without events: a {@link MetricsListener} {@linkplain #bindMetrics bound} here
 * is reached through {@link BoundMetrics} handles with primitive arguments
 * ({@link MetricsListeners} redacts the names it is given), and binding one turns on no event.
 */
public final class EventBus implements EventSink {

  private final CopyOnWriteArrayList<Consumer<Event>> listeners = new CopyOnWriteArrayList<>();
  /** Receive the listener-only kinds too. */
  private final CopyOnWriteArrayList<Consumer<Event>> metricListeners = new CopyOnWriteArrayList<>();
  /** The typed listeners, changed under this bus's lock; {@link #metrics} is their current set. */
  private final List<MetricsListener> bound = new ArrayList<>();
  private volatile MetricsListeners metrics;
  /** Whether anything needs calls and attempts timed: a bound metrics listener, or a metrics event listener. */
  private volatile boolean metricsListening;
  private final Clock wallClock;

  /** @param wallClock the clock for event timestamps */
  public EventBus(Clock wallClock) {
    this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
  }

  /**
   * @return the registry's wall clock: it stamps events, and the policies that read a {@code
   *     Retry-After} HTTP date measure it against this clock
   */
  public Clock wallClock() {
    return wallClock;
  }

  /**
   * @param listener receives every event; a listener that throws (an {@link Error} included, but
   *     not a {@link VirtualMachineError}) is logged and ignored
   * @return closing it unsubscribes
   */
  public AutoCloseable subscribe(Consumer<Event> listener) {
    return add(listeners, listener);
  }

  /**
   * @param listener receives every event and also {@code call.succeeded}, {@code call.failed} and
   *     {@code instance.created}; a listener that throws is logged and ignored
   * @return closing it unsubscribes
   */
  public AutoCloseable subscribeForMetrics(Consumer<Event> listener) {
    Objects.requireNonNull(listener, "listener");
    synchronized (this) {
      metricListeners.add(listener);
      listeningChanged();
    }
    return () -> {
      synchronized (this) {
        metricListeners.remove(listener);
        listeningChanged();
      }
    };
  }

  private static AutoCloseable add(CopyOnWriteArrayList<Consumer<Event>> list, Consumer<Event> listener) {
    Objects.requireNonNull(listener, "listener");
    list.add(listener);
    return () -> list.remove(listener);
  }

  /**
   * Binds a metrics listener: from now on every call and instance reports to it through its {@link
   * BoundMetrics}, and calls and attempts are timed.
   *
   * @param listener the listener
   * @return closing it unbinds the listener
   */
  public AutoCloseable bindMetrics(MetricsListener listener) {
    Objects.requireNonNull(listener, "listener");
    synchronized (this) {
      bound.add(listener);
      boundChanged();
    }
    return () -> {
      synchronized (this) {
        if (bound.remove(listener)) {
          boundChanged();
        }
      }
    };
  }

  /** Under this bus's lock: a new set, so that every handle resolved against the old one asks again. */
  private void boundChanged() {
    metrics = bound.isEmpty() ? null : new MetricsListeners(bound);
    listeningChanged();
  }

  /** Under this bus's lock. */
  private void listeningChanged() {
    metricsListening = !bound.isEmpty() || !metricListeners.isEmpty();
  }

  /** @return the metrics listeners bound now, as one, or null; one volatile read */
  public MetricsListener metrics() {
    return metrics;
  }

  /**
   * The check on the happy path before anything is timed for metrics: one volatile read, no
   * lookup by kind.
   *
   * @return whether a metrics listener is bound or a metrics event listener subscribed
   */
  public boolean metricsListening() {
    return metricsListening;
  }

  /**
   * @param kind the event
   * @return whether anyone would see an event of this kind
   */
  @Override
  public boolean enabled(EventKind kind) {
    if (!metricListeners.isEmpty()) {
      return true;
    }
    return !kind.isMetricsOnly()
        && (!listeners.isEmpty() || EventLog.enabled(kind) || SpanEvents.recording());
  }

  /**
   * Emits an event. Check {@link #enabled(EventKind)} first on hot paths.
   *
   * @param kind the event
   * @param instance the emitting instance's name
   * @param keysAndValues alternating attribute names and values; null values are left out, every
   *     value that is not a number or a boolean is redacted as text
   */
  @Override
  public void emit(EventKind kind, String instance, Object... keysAndValues) {
    Map<String, Object> attributes = new LinkedHashMap<>();
    for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
      Object value = keysAndValues[i + 1];
      if (value != null) {
        attributes.put((String) keysAndValues[i], redacted(value));
      }
    }
    Event event = new Event(kind.key(), Redactor.redact(instance), attributes, wallClock.instant());
    if (!kind.isMetricsOnly()) {
      EventLog.write(kind, event);
      SpanEvents.add(event);
      deliver(listeners, event);
    }
    deliver(metricListeners, event);
  }

  private static void deliver(CopyOnWriteArrayList<Consumer<Event>> list, Event event) {
    for (Consumer<Event> listener : list) {
      try {
        listener.accept(event);
      } catch (VirtualMachineError fatal) {
        throw fatal;
      } catch (Throwable listenerFailure) {
        // Errors too (an AssertionError in a test's listener): events are emitted between a state
        // change and the return of its ticket, so anything escaping here could strand an instance.
        LoggerFactory.getLogger(EventBus.class)
            .warn("event listener {} threw on {}; ignored", listener, event.kind(), listenerFailure);
      }
    }
  }

  /** Numbers and booleans cannot hold a secret and keep their type; anything else becomes redacted text. */
  private static Object redacted(Object value) {
    if (value instanceof Number || value instanceof Boolean) {
      return value;
    }
    return Redactor.redact(value.toString());
  }
}
