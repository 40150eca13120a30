package dev.brace.runtime.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Timeout;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.internal.sequence.CallPolicies;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A synchronous call whose timeout interrupts the caller's thread makes its first attempt without
 * waiting and without a frame, the alarm armed around the delegate: it ends, counts, reports and
 * passes its bound on exactly as an attempt with a state does. An abandoning timeout, an
 * asynchronous call and a thread under a caller's deadline still take the state's way.
 */
class TimedCallWithoutWaitingTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final ManualTimeSource clock = new ManualTimeSource();
  private final List<Event> events = new CopyOnWriteArrayList<>();
  /** What each delegate call does, given the call it is made by. */
  private volatile Delegate delegate = call -> "answered";

  @FunctionalInterface
  interface Delegate {
    Object run(ResilientCall call) throws Throwable;
  }

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private Registry registry(ScheduledExecutorService scheduler) {
    return registry(scheduler, Map.of());
  }

  private Registry registry(ScheduledExecutorService scheduler, Map<String, String> environment) {
    Registry registry = Registry.builder().timeSource(clock).scheduler(scheduler).environment(environment)
        .systemProperties(Map.of()).build();
    registry.subscribeForMetrics(events::add);
    return registry;
  }

  private ResilientCall timed(Registry registry, String name, Timeout.Mode mode) {
    return registry.resolve(CallDefinition.builder("Timed." + name)
        .invokes((method, target, a, b, c, d, x, y) -> delegate.run((ResilientCall) target), 0)
        .with(TimeoutConfig.builder(name).duration("1s").mode(mode))
        .with(CircuitBreakerConfig.builder(name).failureThreshold(1).resetTimeout("1h"))
        .with(BulkheadConfig.builder(name).maxConcurrent(2))
        .build());
  }

  private ResilientCall timed(Registry registry, String name) {
    return timed(registry, name, Timeout.Mode.INTERRUPT);
  }

  private static Object call(ResilientCall call) {
    return call.call(call, null, null, null, null, 0L, 0L);
  }

  private long count(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).count();
  }

  @Test
  void onlyASynchronousCallWhoseTimeoutInterruptsTakesTheWayWithoutAFrame() {
    Registry registry = registry(clock.scheduler());
    CallPolicies interrupting = (CallPolicies) timed(registry, "interrupts").resolved();
    CallPolicies abandoning = (CallPolicies) timed(registry, "abandons", Timeout.Mode.ABANDON).resolved();

    assertTrue(interrupting.callsSyncWithoutWaiting());
    assertFalse(interrupting.callsWithoutWaiting(), "an asynchronous call's timeout needs a state");
    assertFalse(abandoning.callsSyncWithoutWaiting(), "an abandoning timeout runs the attempt elsewhere");
  }

  @Test
  void anAttemptInTimeAnswersAndPassesItsOwnTimeoutOnToTheCallsNestedInIt() {
    Registry registry = registry(clock.scheduler());
    ResilientCall call = timed(registry, "in-time");
    AtomicReference<Deadline> seen = new AtomicReference<>();
    delegate = self -> {
      seen.set(Deadline.current().orElseThrow());
      return "answered";
    };
    long admitted = clock.nanoTime();

    assertEquals("answered", call(call));

    assertEquals(admitted + SECOND, seen.get().nanoTime(), "the bound counts from the admission instant");
    assertEquals(Duration.ofSeconds(1), seen.get().budget());
    assertSame(clock, seen.get().clock());
    assertTrue(Deadline.current().isEmpty(), "nothing is left passed on after the attempt");
    assertEquals(2, registry.bulkhead("in-time").available());
    assertFalse(Thread.currentThread().isInterrupted());
  }

  @Test
  void withNoMetricsListenerTheBoundStillCountsFromTheAdmissionInstant() {
    Registry registry = Registry.builder().timeSource(clock).scheduler(clock.scheduler()).environment(Map.of())
        .systemProperties(Map.of()).build();
    ResilientCall call = timed(registry, "unmetered");
    clock.advance(Duration.ofSeconds(7));
    delegate = self -> Deadline.current().orElseThrow().nanoTime();

    assertEquals(clock.nanoTime() + SECOND, call(call));
  }

  @Test
  void aCallThatTakesNoPartInDeadlinesPassesNothingOn() {
    Registry registry = registry(clock.scheduler(), Map.of("BRACE_DEADLINE_ENABLED", "false"));
    ResilientCall call = registry.resolve(CallDefinition.builder("Timed.apart")
        .invokes((method, target, a, b, c, d, x, y) -> Deadline.current(), 0)
        .with(TimeoutConfig.builder("apart").duration("1s"))
        .build());

    assertEquals(java.util.Optional.empty(), call(call));
  }

  @Test
  void anAttemptPastItsTimeoutEndsWithTimeoutExceededWhichTheBreakerCounts() {
    Registry registry = registry(clock.scheduler());
    ResilientCall call = timed(registry, "late");
    delegate = self -> {
      clock.sleep(Duration.ofSeconds(5));
      return "too late";
    };

    TimeoutExceededException timedOut = assertThrows(TimeoutExceededException.class, () -> call(call));

    assertInstanceOf(InterruptedException.class, timedOut.getSuppressed()[0], "what the attempt threw is kept");
    assertFalse(Thread.currentThread().isInterrupted(), "the alarm's interrupt is cleared");
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("late").state());
    assertEquals(2, registry.bulkhead("late").available());
    assertEquals(1, count("timeout.exceeded"));
    assertEquals(1, count("call.failed"));
  }

  @Test
  void aResultReturnedAfterTheAlarmFiredIsNoAnswerAndAnInterruptFromBeforeIsKept() {
    Registry registry = registry(clock.scheduler());
    ResilientCall call = timed(registry, "kept");
    delegate = self -> {
      // Moves the clock without sleeping: the alarm fires, the delegate does not notice.
      clock.advance(Duration.ofSeconds(2));
      return "ignored the interrupt";
    };
    Thread.currentThread().interrupt();

    TimeoutExceededException timedOut = assertThrows(TimeoutExceededException.class, () -> call(call));

    assertEquals(0, timedOut.getSuppressed().length);
    assertTrue(Thread.interrupted(), "the caller's own interrupt is still there");
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("kept").state());
  }

  @Test
  void aNestedCallOutOfThePassedOnBoundIsTheAttemptsOwnTimeout() {
    Registry registry = registry(clock.scheduler());
    ResilientCall outer = timed(registry, "outer");
    ResilientCall inner = registry.resolve(CallDefinition.builder("Timed.inner")
        .invokes((method, target, a, b, c, d, x, y) -> "inner", 0)
        .with(RateLimitConfig.builder("inner").permits(1).per("1h").burst(1).maxWait("2h"))
        .build());
    assertEquals("inner", call(inner));
    // The nested call's next token is due in an hour, after the bound passed on: refused at once.
    delegate = self -> call(inner);

    TimeoutExceededException timedOut = assertThrows(TimeoutExceededException.class, () -> call(outer));

    assertEquals("outer", timedOut.instance());
    DeadlineExceededException nested = assertInstanceOf(DeadlineExceededException.class, timedOut.getSuppressed()[0]);
    assertEquals(Duration.ofSeconds(1), nested.deadline().budget());
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("outer").state(), "the breaker counts its own timeout");
    assertEquals(1, count("timeout.exceeded"));
  }

  @Test
  void theSameCallNestedInItsOwnAttemptIsArmedAlarmOfItsOwnAndTheOuterStillTimesOut() {
    Registry registry = registry(clock.scheduler());
    ResilientCall call = timed(registry, "recursive");
    delegate = self -> {
      delegate = inner -> "inner";
      Object nested = call(self);
      clock.sleep(Duration.ofSeconds(2));
      return nested;
    };

    assertThrows(TimeoutExceededException.class, () -> call(call));
    assertFalse(Thread.currentThread().isInterrupted());
    assertEquals(2, registry.bulkhead("recursive").available());
    assertEquals(1, count("timeout.exceeded"));
  }

  @Test
  void underACallersEarlierDeadlineTheAttemptIsCutShortByItAndNotCounted() throws Exception {
    Registry registry = registry(clock.scheduler());
    ResilientCall call = timed(registry, "inherits");
    delegate = self -> {
      clock.sleep(Duration.ofSeconds(5));
      return "too late";
    };

    try (Deadline.Scope ignored = Deadline.open(Duration.ofMillis(300), clock)) {
      assertThrows(DeadlineExceededException.class, () -> call(call));
    }

    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("inherits").state(), "the caller ran out of time");
    assertEquals(2, registry.bulkhead("inherits").available());
    assertEquals(0, count("timeout.exceeded"));
  }

  @Test
  void aSchedulerThatRefusesTheAlarmFailsTheAttemptAndGivesEverythingBack() {
    ScheduledExecutorService stopped = Executors.newSingleThreadScheduledExecutor();
    stopped.shutdown();
    Registry registry = registry(stopped);
    ResilientCall call = timed(registry, "refused");
    delegate = self -> {
      throw new AssertionError("the delegate is not called without its alarm");
    };

    assertThrows(RejectedExecutionException.class, () -> call(call));

    assertEquals(2, registry.bulkhead("refused").available());
    assertNull(Deadline.current().orElse(null));
    assertFalse(Thread.currentThread().isInterrupted());
  }

  @Test
  void theAlarmsInterruptIsClearedWhenTheSchedulerRefusesTheAlarmJustAsItFires() {
    ScheduledThreadPoolExecutor firesThenRefuses = firesThenRefuses();
    try {
      ResilientCall call = timed(registry(firesThenRefuses), "refused-fired");

      assertThrows(RejectedExecutionException.class, () -> call(call));

      assertFalse(Thread.interrupted(), "the alarm fired, and its interrupt is cleared");
    } finally {
      firesThenRefuses.shutdownNow();
    }
  }

  /**
   * A scheduler on which the watchdog's sweep runs as it is scheduled, past the alarm's instant,
   * and which then refuses: the alarm has fired (its interrupt landed) and the attempt never starts.
   */
  private ScheduledThreadPoolExecutor firesThenRefuses() {
    return new ScheduledThreadPoolExecutor(1) {
      @Override
      public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
        clock.advance(Duration.ofSeconds(2));
        task.run();
        throw new RejectedExecutionException("shutting down");
      }
    };
  }

  @Test
  void anInterruptFromBeforeIsKeptWhenTheSchedulerRefusesTheAlarmJustAsItFires() {
    ScheduledThreadPoolExecutor firesThenRefuses = firesThenRefuses();
    try {
      Registry registry = registry(firesThenRefuses);
      ResilientCall call = timed(registry, "refused-late");
      delegate = self -> {
        throw new AssertionError("the delegate is not called without its alarm");
      };
      Thread.currentThread().interrupt();

      assertThrows(RejectedExecutionException.class, () -> call(call));

      assertTrue(Thread.interrupted(), "the caller's own interrupt is kept, the alarm's cleared");
      assertEquals(2, registry.bulkhead("refused-late").available());
    } finally {
      firesThenRefuses.shutdownNow();
    }
  }
}
