package dev.brace.micrometer;

import dev.brace.runtime.Event;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code brace.chaos.injections} (counter; {@code kind}, {@code name}, {@code what}): the attempts
 * fault injection delayed ({@code what=latency}) or failed ({@code what=fault}), by the name it is
 * configured under and what that name names ({@code kind}: {@code call} for a call's own name, else
 * the instance's kind). Fed by the {@code chaos.injected} event; a rehearsal's dashboard shows the
 * injections beside what the patterns made of them.
 */
final class ChaosMeters implements AutoCloseable {
  static final String NAME = "brace.chaos.injections";

  private final MeterRegistry meters;
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();

  ChaosMeters(MeterRegistry meters) {
    this.meters = meters;
  }

  /** Counts one {@code chaos.injected} event. */
  void injected(Event event) {
    String kind = String.valueOf(event.attributes().get("kind"));
    String what = String.valueOf(event.attributes().get("what"));
    String name = event.instance();
    counters.computeIfAbsent(kind + '|' + name + '|' + what, key -> Counter.builder(NAME)
        .description("attempts fault injection delayed or failed on purpose")
        .tags("kind", kind, "name", name, "what", what)
        .register(meters)).increment();
  }

  /** Removes every counter this binding registered. */
  @Override
  public void close() {
    counters.values().forEach(meters::remove);
    counters.clear();
  }
}
