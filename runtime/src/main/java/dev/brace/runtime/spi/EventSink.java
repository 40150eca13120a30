package dev.brace.runtime.spi;

/** Where an instance reports its events: the registry's one event boundary. */
public interface EventSink {

  /**
   * @param kind the event's name, e.g. {@code "circuit.opened"}
   * @return whether anyone would see an event of this kind; check it before building attributes
   */
  boolean enabled(String kind);

  /**
   * @param kind the event's name
   * @param instance the emitting instance's name
   * @param keysAndValues alternating attribute names and values; null values are left out
   */
  void emit(String kind, String instance, Object... keysAndValues);
}
