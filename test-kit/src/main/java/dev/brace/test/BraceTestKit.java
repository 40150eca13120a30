package dev.brace.test;

import dev.brace.runtime.Brace;
import dev.brace.runtime.BulkheadHandle;
import dev.brace.runtime.CircuitBreakerHandle;
import dev.brace.runtime.Description;
import dev.brace.runtime.Event;
import dev.brace.runtime.RateLimiterHandle;
import dev.brace.runtime.Registry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.opentest4j.AssertionFailedError;

/**
 * What a test of an application's resilience holds: a {@link Registry} on manual time, a recorder of
 * every event of the calls the test makes, assertions on those calls and breakers, and controls that
 * force a breaker, a limiter, a bulkhead or a fault for the test's duration.
 *
 * <pre>{@code
 * @BraceTest
 * class CatalogTest {
 *   @Test
 *   void retriesTwiceThenFallsBack(BraceTestKit brace) {
 *     Catalog catalog = brace.wrap(Catalog.class, id -> { throw new IOException("down"); });
 *     assertEquals(Catalog.UNKNOWN, catalog.item("42"));
 *     brace.call("Catalog.item").retried(2).thenFellBack();
 *   }
 * }
 * }</pre>
 *
 * <p>Time moves only when the test calls {@link #advance}: a synchronous call's backoff or limiter
 * wait advances it by itself (the registry sleeps on manual time, which returns at once), and
 * everything scheduled (asynchronous retries, hedges, timeouts, a breaker's cooldown) runs, in
 * order, as {@code advance} passes its instant.
 *
 * <p>The JUnit extension ({@link BraceTest}) gives each test a kit of its own and closes it after
 * the test, pass or fail; a kit built by hand ({@link #start}) is closed by the test. Not for
 * calls from several threads at once: the recorder orders events as they arrive.
 */
public final class BraceTestKit implements AutoCloseable {
  private final Registry registry;
  private final TestTime time;
  private final Consumer<Map<String, String>> reconfigure;
  private final Recording recording;
  /** What undoes each control in force, newest first. */
  private final Deque<Runnable> undo = new ArrayDeque<>();
  /** The settings the controls add to the registry's configuration now (fault injection). */
  private final Map<String, String> addedSettings = new HashMap<>();

  private BraceTestKit(Registry registry, TestTime time, Consumer<Map<String, String>> reconfigure) {
    this.registry = registry;
    this.time = time;
    this.reconfigure = reconfigure;
    this.recording = new Recording(registry, time);
  }

  /**
   * A kit with a registry of its own, configured by nothing but what is given here: the machine's
   * {@code BRACE_…} variables and {@code brace.…} system properties do not reach it.
   *
   * @param properties settings as system properties ({@code brace.circuitbreaker.catalog-api.reset-timeout=30s})
   * @param settings programmatic settings ({@code b -> b.retry("Catalog.item", r -> r.maxAttempts(3))})
   * @return the kit; close it when the test ends
   * @throws dev.brace.runtime.ConfigurationException when a setting is refused
   * @throws NullPointerException when an argument is null
   */
  public static BraceTestKit start(Map<String, String> properties, Consumer<Registry.Builder> settings) {
    Map<String, String> given = Map.copyOf(Objects.requireNonNull(properties, "properties"));
    TestTime time = new TestTime();
    Registry.Builder builder = time.applyTo(Registry.builder()).environment(Map.of()).systemProperties(given);
    Objects.requireNonNull(settings, "settings").accept(builder);
    Registry registry = builder.build();
    return new BraceTestKit(registry, time, added -> {
      Map<String, String> withAdded = new HashMap<>(given);
      withAdded.putAll(added);
      registry.reconfigure(Map.of(), withAdded);
    });
  }

  /**
   * A kit with a registry of its own and no settings but the annotations'.
   *
   * @return the kit; close it when the test ends
   */
  public static BraceTestKit start() {
    return start(Map.of(), builder -> {});
  }

  /**
   * A kit over a registry built elsewhere on {@code time} (the Spring Boot support builds the
   * application's registry so): its events are recorded from now on.
   *
   * @param registry a registry whose time source and wall clock are {@code time}'s ({@link TestTime#applyTo})
   * @param time its time
   * @param reconfigure applies settings added to the registry's configuration (fault injection) on top
   *     of its own, all of them each time; given an empty map, it restores the registry's own
   * @return the kit
   * @throws IllegalArgumentException when the registry is not on {@code time}'s time source
   * @throws NullPointerException when an argument is null
   */
  public static BraceTestKit attach(Registry registry, TestTime time, Consumer<Map<String, String>> reconfigure) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(time, "time");
    if (registry.timeSource() != time.source()) {
      throw new IllegalArgumentException("the registry runs on " + registry.timeSource() + ", not on the test's manual time"
          + " " + time.source() + ": build it with TestTime.applyTo(builder)");
    }
    return new BraceTestKit(registry, time, Objects.requireNonNull(reconfigure, "reconfigure"));
  }

  /** @return the registry on manual time: wrap the test's fakes with it ({@link #wrap}, {@code Stack.build(registry)}) */
  public Registry registry() {
    return registry;
  }

  /** @return the test's time: the manual time source and the wall clock that moves with it */
  public TestTime time() {
    return time;
  }

  /**
   * @param type an interface with a generated wrapper
   * @param delegate what the wrapper calls: the test's fake of the dependency
   * @param <T> the interface
   * @return the wrapper, on this kit's registry
   * @throws IllegalArgumentException as {@link Brace#wrap(Class, Object, Registry)}
   */
  public <T> T wrap(Class<T> type, T delegate) {
    return Brace.wrap(type, delegate, registry);
  }

  /**
   * Moves time forward, running on this thread, in time order, everything that falls due on the way:
   * asynchronous backoffs and retries, hedges, timeouts, limiter refills, a waiting caller's give-up;
   * a breaker whose cooldown passes admits its probe at the next call.
   *
   * @param duration how far; zero runs what is due now
   * @throws IllegalArgumentException when {@code duration} is negative: time only moves forward
   * @throws NullPointerException when {@code duration} is null
   */
  public void advance(Duration duration) {
    Objects.requireNonNull(duration, "duration");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("advance(" + duration + "): time only moves forward, and the test is at +"
          + Recording.offset(time.elapsed()).substring(1) + "; give a duration of zero or more");
    }
    time.source().advance(duration);
  }

  /** @return how far time has moved since the kit started */
  public Duration elapsed() {
    return time.elapsed();
  }

  /**
   * The last call of a name the test made (or is making).
   *
   * @param name a call name: {@code Interface.method}, or a stack's name
   * @return the call, for assertions
   * @throws AssertionFailedError when no call of that name was made, naming the calls that were
   * @throws NullPointerException when {@code name} is null
   */
  public RecordedCall call(String name) {
    List<RecordedCall> calls = calls(name);
    if (calls.isEmpty()) {
      throw new AssertionFailedError("no call named '" + name + "' was made in this test; the calls made: "
          + recording.callNames() + " (a call is named Interface.method, or after its stack)");
    }
    return calls.get(calls.size() - 1);
  }

  /**
   * @param name a call name
   * @return every call of that name the test made, in the order they ended; empty when none
   * @throws NullPointerException when {@code name} is null
   */
  public List<RecordedCall> calls(String name) {
    return recording.calls(Objects.requireNonNull(name, "name"));
  }

  /**
   * @param name a circuit breaker's name
   * @return the breaker and what it did in this test, for assertions
   * @throws IllegalArgumentException when the registry has no breaker of that name, naming those it has
   * @throws NullPointerException when {@code name} is null
   */
  public RecordedBreaker breaker(String name) {
    CircuitBreakerHandle handle = registry.circuitBreaker(Objects.requireNonNull(name, "name"));
    return new RecordedBreaker(handle, recording.eventsOf(name));
  }

  /** @return every event of the registry since the test began, oldest first */
  public List<Event> events() {
    List<Event> events = new ArrayList<>();
    recording.entries().forEach(entry -> events.add(entry.event()));
    return events;
  }

  /** @return every event since the test began, one line each: when, what, which instance, the details */
  public String timeline() {
    return Recording.timeline(recording.entries());
  }

  /**
   * Holds a circuit breaker open until the test ends: every call is refused, however much time passes.
   *
   * @param breaker the breaker's name
   * @throws IllegalArgumentException when the registry has no breaker of that name, naming those it has
   */
  public void forceOpen(String breaker) {
    CircuitBreakerHandle handle = registry.circuitBreaker(Objects.requireNonNull(breaker, "breaker"));
    handle.forceOpen();
    undo.push(handle::reset);
  }

  /**
   * Holds a circuit breaker closed until the test ends: every call is admitted, however many fail.
   *
   * @param breaker the breaker's name
   * @throws IllegalArgumentException when the registry has no breaker of that name, naming those it has
   */
  public void forceClosed(String breaker) {
    CircuitBreakerHandle handle = registry.circuitBreaker(Objects.requireNonNull(breaker, "breaker"));
    handle.forceClosed();
    undo.push(handle::reset);
  }

  /**
   * Holds a rate limiter empty until the test ends: every call is refused, however much time passes.
   * Undone by refilling it.
   *
   * @param limiter the limiter's name
   * @throws IllegalArgumentException when the registry has no limiter of that name, naming those it has
   */
  public void forceEmpty(String limiter) {
    RateLimiterHandle handle = registry.rateLimiter(Objects.requireNonNull(limiter, "limiter"));
    handle.forceEmpty();
    undo.push(handle::releaseForced);
  }

  /**
   * Holds a bulkhead full until the test ends: every call waits its {@code maxWait} and is refused.
   *
   * @param bulkhead the bulkhead's name
   * @throws IllegalArgumentException when the registry has no bulkhead of that name, naming those it has
   */
  public void forceFull(String bulkhead) {
    BulkheadHandle handle = registry.bulkhead(Objects.requireNonNull(bulkhead, "bulkhead"));
    handle.forceFull();
    undo.push(handle::releaseForced);
  }

  /**
   * Fails every attempt of the calls that have this name (a call's, or an instance's they use) with
   * {@code fault}, without calling the dependency, until the test ends: fault injection, switched on
   * for this name only.
   *
   * @param name a call name or an instance name
   * @param fault a public exception class with a public {@code String} constructor that the calls may throw
   * @throws IllegalArgumentException when the registry has no call or instance of that name, naming those it has
   * @throws dev.brace.runtime.ConfigurationException when the calls cannot throw {@code fault}
   */
  public void injectFault(String name, Class<? extends Throwable> fault) {
    Objects.requireNonNull(fault, "fault");
    inject(name, Map.of("fault-rate", "1", "fault", fault.getName()));
  }

  /**
   * Delays every attempt of the calls that have this name by {@code latency}, on the test's time,
   * until the test ends.
   *
   * @param name a call name or an instance name
   * @param latency how long each attempt is delayed; not negative
   * @throws IllegalArgumentException when the registry has no call or instance of that name, naming
   *     those it has, or when {@code latency} is negative
   */
  public void injectLatency(String name, Duration latency) {
    Objects.requireNonNull(latency, "latency");
    if (latency.isNegative()) {
      throw new IllegalArgumentException("injectLatency('" + name + "', " + latency + "): a latency is not negative");
    }
    inject(name, Map.of("latency-rate", "1", "latency", latency.toNanos() + "ns"));
  }

  private void inject(String name, Map<String, String> settings) {
    Objects.requireNonNull(name, "name");
    requireKnownName(name);
    Map<String, String> before = Map.copyOf(addedSettings);
    addedSettings.put("brace.chaos.enabled", "true");
    settings.forEach((property, value) -> addedSettings.put("brace.chaos." + name + "." + property, value));
    try {
      reconfigure.accept(Map.copyOf(addedSettings));
    } catch (RuntimeException refused) {
      addedSettings.clear();
      addedSettings.putAll(before);
      throw refused;
    }
    undo.push(() -> {
      addedSettings.keySet().removeIf(key -> key.startsWith("brace.chaos." + name + "."));
      if (addedSettings.keySet().stream().noneMatch(key -> key.startsWith("brace.chaos.") && !key.equals("brace.chaos.enabled"))) {
        addedSettings.remove("brace.chaos.enabled");
      }
      reconfigure.accept(Map.copyOf(addedSettings));
    });
  }

  private void requireKnownName(String name) {
    Set<String> calls = new TreeSet<>();
    for (Description.Call call : registry.describe().calls()) {
      calls.add(call.name());
    }
    Set<String> instances = new TreeSet<>();
    registry.names().forEach((kind, names) -> instances.addAll(names));
    if (!calls.contains(name) && !instances.contains(name)) {
      throw new IllegalArgumentException("this registry has no call or instance named '" + name
          + "', so nothing would be injected; its calls: " + calls + "; its instances: " + instances);
    }
  }

  /**
   * Undoes every control in force (newest first): forced breakers are reset, limiters refilled,
   * bulkheads' permits returned, fault injection switched off. Every undo runs even when one fails;
   * the first failure is thrown after the others ran.
   *
   * @throws RuntimeException the first undo's failure
   */
  public void undoControls() {
    RuntimeException first = null;
    while (!undo.isEmpty()) {
      try {
        undo.pop().run();
      } catch (RuntimeException failed) {
        if (first == null) {
          first = failed;
        } else {
          first.addSuppressed(failed);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /**
   * Readies a registry that outlives a test (an application's, shared by the tests of one Spring
   * context) for the next one: undoes the controls, closes every breaker, refills every limiter and
   * forgets the events recorded. Time is not turned back.
   */
  public void reset() {
    try {
      undoControls();
    } finally {
      Map<String, Set<String>> names = registry.names();
      for (String breaker : names.getOrDefault("circuitbreaker", Set.of())) {
        resetLocal(() -> registry.circuitBreaker(breaker).reset());
      }
      for (String limiter : names.getOrDefault("ratelimit", Set.of())) {
        resetLocal(() -> registry.rateLimiter(limiter).releaseForced());
      }
      recording.clear();
    }
  }

  /**
   * A keyed family answers for its members only, and a shared backend keeps state this JVM does not
   * own: neither is this test's to reset.
   */
  private static void resetLocal(Runnable reset) {
    try {
      reset.run();
    } catch (IllegalArgumentException | UnsupportedOperationException notLocal) {
      // left as it is
    }
  }

  /**
   * Undoes the controls and stops recording.
   *
   * @throws RuntimeException the first undo's failure
   */
  @Override
  public void close() {
    try {
      undoControls();
    } finally {
      try {
        recording.close();
      } catch (Exception unreachable) {
        throw new IllegalStateException(unreachable);
      }
    }
  }

  @Override
  public String toString() {
    return "BraceTestKit[+" + Recording.offset(time.elapsed()).substring(1) + "]";
  }
}
