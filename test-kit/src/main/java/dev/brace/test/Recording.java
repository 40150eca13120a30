package dev.brace.test;

import dev.brace.runtime.Description;
import dev.brace.runtime.Event;
import dev.brace.runtime.Registry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every event of a registry since the test began, in the order they happened, each with the
 * instant of the test's time it happened at; and the calls they make up. Subscribed as a metrics
 * listener, so that it also sees each attempt ({@code call.succeeded}, {@code call.failed}) and
 * each call's end ({@code call.ended}), which ordinary listeners never receive.
 */
final class Recording implements AutoCloseable {

  /** An event and when, on the test's time, it happened. */
  record Entry(Duration at, Event event) {}

  /** What a call does once its outcome is reported ({@code call.ended}): look for a remembered result, answer from it or from a fallback. */
  private static final Set<String> AFTER_THE_END = Set.of("stale.served", "stale.missing", "fallback.used");

  private final Registry registry;
  private final TestTime time;
  private final List<Entry> entries = new ArrayList<>();
  private final AutoCloseable subscription;

  Recording(Registry registry, TestTime time) {
    this.registry = registry;
    this.time = time;
    this.subscription = registry.subscribeForMetrics(this::record);
  }

  private void record(Event event) {
    Entry entry = new Entry(time.sinceStart(time.source().nanoTime()), event);
    synchronized (entries) {
      entries.add(entry);
    }
  }

  /** @return every event so far, oldest first */
  List<Entry> entries() {
    synchronized (entries) {
      return List.copyOf(entries);
    }
  }

  /** Forgets every event so far: the next test starts with none. */
  void clear() {
    synchronized (entries) {
      entries.clear();
    }
  }

  /**
   * The calls of one name, in the order they ended; a call still under way (an asynchronous one
   * whose time has not come) is last.
   *
   * @param callName a call name
   * @return its calls, each with its own events and the events of the instances it uses
   */
  List<RecordedCall> calls(String callName) {
    Set<String> instances = instancesOf(callName);
    List<List<Entry>> ended = new ArrayList<>();
    List<Entry> current = new ArrayList<>();
    for (Entry entry : entries()) {
      Event event = entry.event();
      if (event.kind().equals("call.ended") && !event.instance().equals(callName)
          && current.stream().noneMatch(seen -> namesCall(seen.event(), callName))) {
        // Calls made one after another: what the shared instances did so far was another call's.
        current.clear();
      }
      if (!belongsTo(event, callName, instances)) {
        continue;
      }
      if (AFTER_THE_END.contains(event.kind()) && !ended.isEmpty()
          && current.stream().noneMatch(seen -> namesCall(seen.event(), callName))) {
        // A call's outcome is reported before its fallback runs: the answer is the ended call's.
        ended.get(ended.size() - 1).add(entry);
        continue;
      }
      current.add(entry);
      if (event.kind().equals("call.ended") && event.instance().equals(callName)) {
        ended.add(current);
        current = new ArrayList<>();
      }
    }
    List<RecordedCall> calls = new ArrayList<>();
    for (List<Entry> call : ended) {
      calls.add(new RecordedCall(callName, calls.size() + 1, List.copyOf(call), true));
    }
    if (current.stream().anyMatch(entry -> namesCall(entry.event(), callName))) {
      calls.add(new RecordedCall(callName, calls.size() + 1, List.copyOf(current), false));
    }
    return calls;
  }

  /** @return the name of every call that has an event so far, in the order they first appeared */
  Set<String> callNames() {
    Set<String> names = new LinkedHashSet<>();
    for (Entry entry : entries()) {
      Event event = entry.event();
      if (event.kind().startsWith("call.")) {
        names.add(event.instance());
      } else if (event.attributes().get("call") instanceof String call) {
        names.add(call);
      }
    }
    return names;
  }

  /**
   * @param instance an instance's name
   * @return its own events so far (a breaker's transitions and refusals, a limiter's waits)
   */
  List<Entry> eventsOf(String instance) {
    List<Entry> own = new ArrayList<>();
    for (Entry entry : entries()) {
      if (entry.event().instance().equals(instance) && !namesAnyCall(entry.event())) {
        own.add(entry);
      }
    }
    return own;
  }

  private static boolean belongsTo(Event event, String callName, Set<String> instances) {
    if (namesCall(event, callName)) {
      return true;
    }
    // An instance's own events (a breaker opening, a limiter's wait) name no call: they belong to
    // every call that uses the instance, at the moment they happen.
    return !namesAnyCall(event) && instances.contains(event.instance()) && !event.kind().equals("config.changed")
        && !event.kind().equals("instance.created");
  }

  private static boolean namesCall(Event event, String callName) {
    return event.kind().startsWith("call.") ? event.instance().equals(callName) : callName.equals(event.attributes().get("call"));
  }

  private static boolean namesAnyCall(Event event) {
    return event.kind().startsWith("call.") || event.attributes().containsKey("call") || event.kind().equals("deadline.exceeded");
  }

  /** The shared instances a call uses (its breaker, limiter, bulkhead), as the registry resolved it. */
  private Set<String> instancesOf(String callName) {
    Set<String> instances = new HashSet<>();
    for (Description.Call call : registry.describe().calls()) {
      if (call.name().equals(callName)) {
        for (Description.Pattern pattern : call.patterns()) {
          instances.add(pattern.instance());
        }
      }
    }
    instances.remove(callName);
    return instances;
  }

  /**
   * @param entries events in order
   * @return them as lines: when, what, which instance, and every attribute
   */
  static String timeline(List<Entry> entries) {
    if (entries.isEmpty()) {
      return "  (no event)\n";
    }
    StringBuilder lines = new StringBuilder();
    for (Entry entry : entries) {
      Event event = entry.event();
      Map<String, Object> attributes = new LinkedHashMap<>(event.attributes());
      attributes.remove("call");
      lines.append(String.format("  %10s  %-22s %-24s", offset(entry.at()), event.kind(), event.instance()));
      attributes.forEach((name, value) -> lines.append(' ').append(name).append('=').append(value));
      lines.append('\n');
    }
    return lines.toString();
  }

  /** {@code +1.250s}: milliseconds are what backoffs and cooldowns are configured in. */
  static String offset(Duration at) {
    long millis = at.toMillis();
    return String.format("+%d.%03ds", millis / 1000, millis % 1000);
  }

  @Override
  public void close() throws Exception {
    subscription.close();
  }
}
