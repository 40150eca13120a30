package dev.brace.it.matrix;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.brace.micrometer.BraceMetrics;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * One cell of the matrix: a registry on manual time built for one layer, backend and listener
 * choice, the scripted dependency, and the form's caller. Scenarios call through it and never
 * need to know which form they run in.
 */
final class Cell implements AutoCloseable {
  /** How far one step of {@link #drive} moves manual time. */
  private static final Duration STEP = Duration.ofMillis(50);
  /** Manual time {@link #drive} moves at most: far beyond any deadline a scenario sets. */
  private static final Duration MOST_MANUAL_TIME = Duration.ofMinutes(30);
  /**
   * The real time one cell may take in all; every wait in it for real threads is bounded by what
   * is left of it, not by a bound of its own. A cell takes milliseconds on an idle machine, so only
   * a hang reaches this, however slow a loaded machine makes each step.
   */
  static final Duration REAL_LIMIT = Duration.ofSeconds(60);

  final Scenario scenario;
  final Form form;
  final Layer layer;
  final BackendChoice backend;
  final boolean listening;
  final ManualTimeSource clock = new ManualTimeSource();
  final Script script = new Script(clock);
  final List<Event> events = new CopyOnWriteArrayList<>();
  /** Where {@code BraceMetrics} records while the cell listens, bound as the Spring Boot starter binds it. */
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final Registry registry;
  /** The call name of the form's method, which also names the Stack. */
  final String callName;

  private final InMemoryBackend memory = new InMemoryBackend();
  /** The outer layers the registry was built with, kept so a reconfiguration changes only what it names. */
  private final Map<String, String> environment;
  private final Map<String, String> properties;
  private final ExecutorService background = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "matrix-caller");
    thread.setDaemon(true);
    return thread;
  });
  private final Form.Caller caller;
  /** The thread each started sync call runs on, to see where it waits. */
  private final Map<CompletableFuture<String>, Thread> runners = new java.util.concurrent.ConcurrentHashMap<>();
  /** {@code System.nanoTime()} at which {@link #REAL_LIMIT} runs out. */
  private final long realDeadline = System.nanoTime() + REAL_LIMIT.toNanos();

  Cell(Scenario scenario, Form form, Layer layer, BackendChoice backend, boolean listening) {
    this.scenario = scenario;
    this.form = form;
    this.layer = layer;
    this.backend = backend;
    this.listening = listening;
    Class<? extends Shape> type = layer.type(scenario);
    this.callName = nameOf(type) + "." + form.method;

    Registry.Builder builder = Registry.builder().timeSource(clock);
    Map<String, String> environment = new HashMap<>();
    Map<String, String> properties = new HashMap<>(scenario.systemProperties());
    if (layer == Layer.ANNOTATION) {
      scenario.beyondAnnotations(builder);
    } else if (layer == Layer.PROGRAMMATIC) {
      scenario.programmatic(builder, callName);
    } else if (layer == Layer.ENVIRONMENT) {
      environment.putAll(scenario.environment(callName));
    }
    if (backend == BackendChoice.MEMORY) {
      // Chosen by system property, so the layer under test stays the only other configuration.
      builder.backend(InMemoryBackend.NAME, memory);
      scenario.breakers().forEach(name -> properties.put("brace.circuitbreaker." + name(name) + ".backend", InMemoryBackend.NAME));
      scenario.limiters().forEach(name -> properties.put("brace.ratelimit." + name(name) + ".backend", InMemoryBackend.NAME));
    }
    this.registry = builder.environment(environment).systemProperties(properties).build();
    this.environment = Map.copyOf(environment);
    this.properties = Map.copyOf(properties);
    if (listening) {
      registry.subscribeForMetrics(events::add);
      BraceMetrics.bind(registry, meters);
    }
    this.caller = form.caller(scenario, type, callName, layer == Layer.ANNOTATION, registry, script);
  }

  /**
   * Reconfigures the registry live: the cell's own environment and properties with {@code changes}
   * laid over its environment.
   */
  void reconfigure(Map<String, String> changes) {
    Map<String, String> next = new HashMap<>(environment);
    next.putAll(changes);
    registry.reconfigure(next, properties);
  }

  /** @return the name a breaker, limiter or bulkhead has in this cell's layer */
  String name(String annotatedName) {
    return Scenario.named(annotatedName, layer == Layer.ANNOTATION);
  }

  /** @return an interface's name for naming: its nesting chain without the package */
  static String nameOf(Class<?> type) {
    return type.getName().substring(type.getPackageName().length() + 1).replace('$', '.');
  }

  boolean async() {
    return form.async();
  }

  /** Calls with key {@code "k"}; see {@link #call(String, String)}. */
  String call(String input) throws Exception {
    return call("k", input);
  }

  /**
   * Calls on this thread and returns or throws what the call ended with; an async form's future is
   * completed by moving manual time, as its scheduler would see time pass.
   */
  String call(String key, String input) throws Exception {
    return async() ? drive(startAsync(key, input)) : caller.call(key, input);
  }

  /**
   * Calls under a deadline the calling thread opens. An async form is called from a thread of its
   * own and driven from this one, so that what runs after the call returned its future (an attempt
   * after a wait, a retry) runs on another thread than the caller's, as on a real scheduler; a sync
   * form is called on this thread, where all of it runs.
   */
  String callUnder(Duration deadline, String input) throws Exception {
    if (!async()) {
      try (Deadline.Scope scope = Deadline.open(deadline, clock)) {
        return caller.call("k", input);
      }
    }
    CompletableFuture<String> started;
    try {
      started = background.submit(() -> {
        try (Deadline.Scope scope = Deadline.open(deadline, clock)) {
          return startAsync("k", input);
        }
      }).get(REAL_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException failed) {
      throw new AssertionError("starting the call failed: " + failed.getCause(), failed.getCause());
    }
    return drive(started);
  }

  /** Starts a call without waiting for it: a sync form's call runs on a thread of its own. */
  CompletableFuture<String> start(String key, String input) {
    if (async()) {
      return startAsync(key, input);
    }
    CompletableFuture<String> outcome = new CompletableFuture<>();
    background.execute(() -> {
      runners.put(outcome, Thread.currentThread());
      try {
        outcome.complete(caller.call(key, input));
      } catch (Throwable failure) {
        outcome.completeExceptionally(failure);
      }
    });
    return outcome;
  }

  private CompletableFuture<String> startAsync(String key, String input) {
    try {
      return caller.callAsync(key, input);
    } catch (RuntimeException | Error thrown) {
      throw new AssertionError("an async form threw instead of failing its future: " + thrown, thrown);
    }
  }

  /**
   * Moves manual time in small steps until the call ends, then returns or throws its outcome.
   * After each step a sync caller's thread gets a moment of real time to react, so the clock
   * does not run far ahead of it. Once manual time far beyond any deadline has passed, the call
   * has what is left of the cell's real time to end.
   */
  String drive(CompletableFuture<String> started) throws Exception {
    Duration moved = Duration.ZERO;
    while (!started.isDone()) {
      if (moved.compareTo(MOST_MANUAL_TIME) < 0) {
        clock.advance(STEP);
        moved = moved.plus(STEP);
      } else if (realTimeLeft() <= 0) {
        fail("the call had not ended after " + moved.toSeconds() + " s of manual time and "
            + REAL_LIMIT.toSeconds() + " s of real time");
      }
      if (!async() || moved.compareTo(MOST_MANUAL_TIME) >= 0) {
        try {
          started.get(1, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException notYetOrDone) {
          // looked at again by the loop
        }
      }
    }
    return outcome(started);
  }

  /** Waits in real time only, without moving the clock, for a started call to end. */
  String settle(CompletableFuture<String> started) throws Exception {
    try {
      started.get(Math.max(realTimeLeft(), 0), TimeUnit.NANOSECONDS);
    } catch (TimeoutException stillRunning) {
      fail("the call had not ended after " + REAL_LIMIT.toSeconds() + " s of real time, manual time standing still");
    } catch (ExecutionException | InterruptedException ended) {
      // reported by outcome
    }
    return outcome(started);
  }

  /** @return nanoseconds of the cell's real time left, negative once it has run out */
  private long realTimeLeft() {
    return realDeadline - System.nanoTime();
  }

  private static String outcome(CompletableFuture<String> done) throws Exception {
    try {
      return done.get();
    } catch (ExecutionException failed) {
      Throwable cause = failed.getCause();
      if (cause instanceof Exception) {
        throw (Exception) cause;
      }
      throw (Error) cause;
    }
  }

  /**
   * Waits in real time until a started sync call's thread is parked inside a class whose simple
   * name is {@code where}, so that manual time moved after this counts as time it waited there.
   * An async call needs no wait: it was registered where it waits before {@link #start} returned.
   */
  void awaitParkedIn(CompletableFuture<String> started, String where) {
    if (async()) {
      return;
    }
    while (true) {
      Thread runner = runners.get(started);
      if (runner != null && parkedIn(runner, where)) {
        return;
      }
      if (started.isDone()) {
        fail("the call ended instead of waiting in " + where);
      }
      if (realTimeLeft() <= 0) {
        fail("the call was not waiting in " + where + " after " + REAL_LIMIT.toSeconds() + " s of real time");
      }
      LockSupport.parkNanos(100_000);
    }
  }

  private static boolean parkedIn(Thread thread, String where) {
    Thread.State state = thread.getState();
    if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
      return false;
    }
    for (StackTraceElement frame : thread.getStackTrace()) {
      String type = frame.getClassName();
      if (type.substring(type.lastIndexOf('.') + 1).equals(where)) {
        return true;
      }
    }
    return false;
  }

  /** Waits in real time until the dependency has been invoked {@code count} times in all. */
  void awaitInvocations(int count) {
    while (script.invocations.get() < count) {
      if (realTimeLeft() <= 0) {
        fail("the dependency was invoked " + script.invocations.get() + " times after "
            + REAL_LIMIT.toSeconds() + " s of real time, expected " + count);
      }
      LockSupport.parkNanos(1_000_000);
    }
  }

  /** @return manual time since {@code mark}, a {@code clock.nanoTime()} */
  Duration since(long mark) {
    return Duration.ofNanos(clock.nanoTime() - mark);
  }

  CircuitState state(String breaker) {
    return registry.circuitBreaker(breaker).state();
  }

  /** @return the events of one kind this cell's listener saw */
  List<Event> events(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).collect(Collectors.toList());
  }

  /** With metrics bound, the meters (fed without events) must count exactly what the events tell. */
  void checkMeters() {
    if (listening) {
      MeterCheck.assertAgree(events, meters);
    }
  }

  /** A backend that was chosen must really have been used for every breaker and limiter. */
  void checkBackendUsed() {
    if (backend != BackendChoice.MEMORY) {
      return;
    }
    for (String annotatedName : scenario.breakers()) {
      String name = name(annotatedName);
      assertTrue(memory.created.stream().anyMatch(created -> created.equals(name) || created.startsWith(name + "[")),
          "breaker " + name + " did not come from the test backend; it created " + memory.created);
    }
    for (String annotatedName : scenario.limiters()) {
      String name = name(annotatedName);
      assertTrue(memory.created.stream().anyMatch(created -> created.equals(name) || created.startsWith(name + "[")),
          "limiter " + name + " did not come from the test backend; it created " + memory.created);
    }
  }

  @Override
  public void close() {
    script.close();
    background.shutdownNow();
    meters.close();
  }

  @Override
  public String toString() {
    return scenario.title + " · " + form.title + " · " + layer.title + " · " + backend.title + " · "
        + (listening ? "metrics listener" : "no listener");
  }
}
