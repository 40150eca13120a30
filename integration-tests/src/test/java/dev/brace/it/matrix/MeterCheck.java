package dev.brace.it.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.Event;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What {@code BraceMetrics}, fed by the typed metrics path, must have counted, worked out from the
 * events the same calls produced, by the mapping docs/observability.md gives each meter: in a cell
 * with metrics bound, every scenario's timers and counters must be exactly what its events say
 * (counts, and for timers the summed durations), and nothing more. The two paths are fed at the
 * same points, so any difference is a report the typed path dropped, doubled or misnamed.
 */
final class MeterCheck {
  /** By meter name and tags, e.g. {@code brace.calls{call=…, kind=call, name=…, outcome=success}}: count and total nanoseconds. */
  private final Map<String, long[]> expected = new TreeMap<>();

  private MeterCheck() {}

  /**
   * @param events every event a metrics event listener saw, from the registry's start
   * @param meters the registry {@code BraceMetrics} was bound to at the same moment
   */
  static void assertAgree(List<Event> events, MeterRegistry meters) {
    MeterCheck check = new MeterCheck();
    events.forEach(check::expect);
    assertEquals(readable(check.expected), readable(actual(meters)), "the meters as the events tell them");
  }

  private static Map<String, String> readable(Map<String, long[]> seen) {
    Map<String, String> readable = new TreeMap<>();
    seen.forEach((meter, counted) -> readable.put(meter, counted[0] + " × " + counted[1] + " ns"));
    return readable;
  }

  private void expect(Event event) {
    Map<String, Object> attributes = event.attributes();
    String instance = family(event.instance());
    switch (event.kind()) {
      case "call.succeeded", "call.failed" -> {
        if (attributes.get("duration_ns") instanceof Number nanos) {
          add(nanos.longValue(), "brace.attempts", "call", event.instance(),
              "outcome", event.kind().equals("call.succeeded") ? "success" : "failure");
        }
      }
      case "call.ended" -> {
        Object by = attributes.get("by");
        Object byKind = attributes.get("by_kind");
        add(((Number) attributes.get("duration_ns")).longValue(), "brace.calls", "call", event.instance(),
            "kind", byKind == null ? "call" : byKind.toString(), "name", by == null ? instance : family(by.toString()),
            "outcome", attributes.get("outcome").toString());
      }
      case "circuit.rejected" -> add(-1, "brace.rejections", "kind", "circuitbreaker", "name", instance);
      case "ratelimit.rejected" -> add(-1, "brace.rejections", "kind", "ratelimit", "name", instance);
      case "bulkhead.rejected" -> add(-1, "brace.rejections", "kind", "bulkhead", "name", instance);
      case "ratelimit.waited" -> add(((Number) attributes.get("waited_ns")).longValue(), "brace.ratelimit.wait", "name", instance);
      case "bulkhead.waited" -> add(((Number) attributes.get("waited_ns")).longValue(), "brace.bulkhead.wait", "name", instance);
      case "circuit.opened", "circuit.half_open", "circuit.closed" -> add(-1, "brace.circuitbreaker.transitions",
          "from", lower(attributes.get("from")), "name", instance, "to", lower(attributes.get("to")));
      case "retry.attempt_failed" -> add(-1, "brace.retry.attempts", "name", instance,
          "outcome", attributes.containsKey("delay_ms") ? "retried" : "exhausted");
      case "hedge.started" -> add(-1, "brace.hedge.attempts", "name", instance, "outcome", "started");
      case "hedge.budget_exhausted" -> add(-1, "brace.hedge.attempts", "name", instance, "outcome", "budget_exhausted");
      case "hedge.won" -> add(-1, "brace.hedge.wins", "name", instance,
          "winner", Integer.valueOf(1).equals(attributes.get("attempt")) ? "first" : "hedge");
      case "timeout.exceeded" -> add(-1, "brace.timeouts", "name", instance);
      case "deadline.exceeded" -> add(-1, "brace.deadline.exceeded", "name", instance);
      // The settings' name as it is: never a family's, and no key tag.
      case "chaos.injected" -> add(-1, "brace.chaos.injections", "kind", attributes.get("kind").toString(),
          "name", event.instance(), "what", attributes.get("what").toString());
      case "stale.served" -> add(-1, "brace.stale", "name", instance, "outcome", "served");
      case "stale.missing" -> add(-1, "brace.stale", "name", instance, "outcome", "missing");
      default -> {
        // not metered by BraceMetrics: logged, traced, or gauged
      }
    }
  }

  /** @param nanos a timer's sample, or -1 for a counter's increment */
  private void add(long nanos, String name, String... tags) {
    long[] seen = expected.computeIfAbsent(key(name, tags), k -> new long[2]);
    seen[0]++;
    seen[1] += Math.max(0, nanos);
  }

  private static Map<String, long[]> actual(MeterRegistry meters) {
    Map<String, long[]> actual = new TreeMap<>();
    for (Meter meter : meters.getMeters()) {
      long[] seen;
      if (meter instanceof Timer timer) {
        seen = new long[] {timer.count(), (long) timer.totalTime(TimeUnit.NANOSECONDS)};
      } else if (meter instanceof Counter counter) {
        seen = new long[] {(long) counter.count(), 0};
      } else {
        continue; // gauges read live state
      }
      if (seen[0] > 0) {
        List<Tag> tags = meter.getId().getTags();
        String[] pairs = new String[tags.size() * 2];
        for (int i = 0; i < tags.size(); i++) {
          pairs[2 * i] = tags.get(i).getKey();
          pairs[2 * i + 1] = tags.get(i).getValue();
        }
        actual.put(key(meter.getId().getName(), pairs), seen);
      }
    }
    return actual;
  }

  /** Tags sorted by name, as Micrometer keeps them; the values of both maps print readably. */
  private static String key(String name, String... tags) {
    Map<String, String> sorted = new TreeMap<>();
    for (int i = 0; i + 1 < tags.length; i += 2) {
      sorted.put(tags[i], tags[i + 1]);
    }
    return name + sorted;
  }

  private static String family(String instance) {
    int open = instance.indexOf('[');
    return open > 0 && instance.endsWith("]") ? instance.substring(0, open) : instance;
  }

  private static String lower(Object state) {
    return state.toString().toLowerCase(Locale.ROOT);
  }
}
