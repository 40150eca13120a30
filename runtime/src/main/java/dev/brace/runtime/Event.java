package dev.brace.runtime;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Something a named instance did: {@code retry.attempt_failed}, {@code circuit.opened}, … The
 * names are a stable contract; attributes are redacted before any listener sees them.
 */
public final class Event {
  private final String kind;
  private final String instance;
  private final Map<String, Object> attributes;
  private final Instant timestamp;

  /**
   * @param kind the event's name, e.g. {@code "circuit.opened"}
   * @param instance the name of the instance that emitted it
   * @param attributes the details, already redacted
   * @param timestamp when it happened (wall clock)
   * @throws NullPointerException when an argument, or an attribute name or value, is null
   */
  public Event(String kind, String instance, Map<String, Object> attributes, Instant timestamp) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.instance = Objects.requireNonNull(instance, "instance");
    // Kept in the order given, so a log line reads in the order the emitter chose.
    this.attributes =
        Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(attributes, "attributes")));
    this.timestamp = Objects.requireNonNull(timestamp, "timestamp");
    this.attributes.forEach((key, value) -> {
      Objects.requireNonNull(key, "attribute name");
      Objects.requireNonNull(value, key);
    });
  }

  /** @return the event's name, e.g. {@code "circuit.opened"} */
  public String kind() {
    return kind;
  }

  /**
   * @param kind an event kind
   * @return whether this event is of that kind
   */
  public boolean is(EventKind kind) {
    return this.kind.equals(kind.key());
  }

  /** @return the name of the instance that emitted it */
  public String instance() {
    return instance;
  }

  /** @return the details, redacted; never null */
  public Map<String, Object> attributes() {
    return attributes;
  }

  /** @return when it happened */
  public Instant timestamp() {
    return timestamp;
  }

  @Override
  public String toString() {
    return kind + " " + instance + " " + attributes;
  }
}
