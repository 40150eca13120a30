package dev.brace.runtime.internal;

import dev.brace.runtime.Event;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one boundary every event passes: it fans out to SLF4J and to subscribed listeners. Callers
 * check {@link #enabled(String)} first, so with nothing listening an event costs one volatile
 * read and a log-level check, and nothing is allocated.
 */
public final class EventBus {

  private final CopyOnWriteArrayList<Consumer<Event>> listeners = new CopyOnWriteArrayList<>();
  private final Clock wallClock;

  /** @param wallClock the clock for event timestamps */
  public EventBus(Clock wallClock) {
    this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
  }

  /**
   * @param listener receives every event; a listener that throws (an {@link Error} included, but
   *     not a {@link VirtualMachineError}) is logged and ignored
   * @return closing it unsubscribes
   */
  public AutoCloseable subscribe(Consumer<Event> listener) {
    Objects.requireNonNull(listener, "listener");
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /**
   * @param kind the event's name; its prefix picks the logger
   * @return whether anyone would see an event of this kind
   */
  public boolean enabled(String kind) {
    return !listeners.isEmpty() || logger(kind).isInfoEnabled();
  }

  /**
   * Emits an event. Check {@link #enabled(String)} first on hot paths.
   *
   * @param kind the event's name, e.g. {@code "circuit.opened"}
   * @param instance the emitting instance's name
   * @param keysAndValues alternating attribute names and values; null values are left out
   */
  public void emit(String kind, String instance, Object... keysAndValues) {
    Map<String, Object> attributes = new LinkedHashMap<>();
    for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
      Object value = keysAndValues[i + 1];
      if (value != null) {
        attributes.put((String) keysAndValues[i], value);
      }
    }
    Event event = new Event(kind, instance, attributes, wallClock.instant());
    log(event);
    for (Consumer<Event> listener : listeners) {
      try {
        listener.accept(event);
      } catch (VirtualMachineError fatal) {
        throw fatal;
      } catch (Throwable listenerFailure) {
        // Errors too (an AssertionError in a test's listener): events are emitted between a state
        // change and the return of its ticket, so anything escaping here could strand an instance.
        LoggerFactory.getLogger(EventBus.class)
            .warn("event listener {} threw on {}; ignored", listener, kind, listenerFailure);
      }
    }
  }

  /** State changes are worth a WARN/INFO line; per-call refusals only DEBUG, so a storm cannot flood the logs. */
  private static void log(Event event) {
    Logger logger = logger(event.kind());
    String kind = event.kind();
    if (kind.equals("circuit.opened") || kind.equals("retry.budget_exhausted")) {
      logger.warn("{} {} {}", kind, event.instance(), event.attributes());
    } else if (kind.startsWith("circuit.")
        && !kind.equals("circuit.rejected")
        || kind.equals("retry.exhausted")
        || kind.equals("timeout.exceeded")
        || kind.equals("fallback.used")) {
      logger.info("{} {} {}", kind, event.instance(), event.attributes());
    } else {
      logger.debug("{} {} {}", kind, event.instance(), event.attributes());
    }
  }

  private static Logger logger(String kind) {
    int dot = kind.indexOf('.');
    String prefix = dot < 0 ? kind : kind.substring(0, dot);
    switch (prefix) {
      case "retry":
        return RETRY;
      case "circuit":
        return CIRCUIT;
      case "ratelimit":
        return RATELIMIT;
      case "bulkhead":
        return BULKHEAD;
      case "timeout":
        return TIMEOUT;
      case "fallback":
        return FALLBACK;
      default:
        return OTHER;
    }
  }

  private static final Logger RETRY = LoggerFactory.getLogger("dev.brace.retry");
  private static final Logger CIRCUIT = LoggerFactory.getLogger("dev.brace.circuitbreaker");
  private static final Logger RATELIMIT = LoggerFactory.getLogger("dev.brace.ratelimit");
  private static final Logger BULKHEAD = LoggerFactory.getLogger("dev.brace.bulkhead");
  private static final Logger TIMEOUT = LoggerFactory.getLogger("dev.brace.timeout");
  private static final Logger FALLBACK = LoggerFactory.getLogger("dev.brace.fallback");
  private static final Logger OTHER = LoggerFactory.getLogger("dev.brace");
}
