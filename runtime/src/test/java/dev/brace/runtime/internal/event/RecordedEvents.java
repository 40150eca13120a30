package dev.brace.runtime.internal.event;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brace.runtime.Event;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An event bus that keeps what passes through it, for tests to assert on. */
public final class RecordedEvents {
  private final EventBus bus = new EventBus(Clock.systemUTC());
  private final List<Event> seen = new CopyOnWriteArrayList<>();

  public RecordedEvents() {
    bus.subscribe(seen::add);
  }

  public EventBus bus() {
    return bus;
  }

  /** @return the events of one kind so far, in order */
  public List<Event> of(String kind) {
    return seen.stream().filter(event -> event.kind().equals(kind)).toList();
  }

  public Event last() {
    assertFalse(seen.isEmpty(), "no event was emitted");
    return seen.get(seen.size() - 1);
  }
}
