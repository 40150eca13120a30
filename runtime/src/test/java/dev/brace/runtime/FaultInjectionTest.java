package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.brace.Timeout;
import dev.brace.runtime.config.Kind;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Fault injection as a user meets it through {@link Stack} and {@link Registry}: off unless switched
 * on, drawn at every attempt inside the patterns, on manual time.
 *
 * <p>The rates are checked over {@value #CALLS} attempts against a binomial bound: the count of
 * injected attempts lies within {@value #SIGMAS} standard deviations ({@code sqrt(n p (1 - p))}) of
 * {@code n p}. With a fixed seed the count is the same on every run; without one the bound fails by
 * chance less than once in a million runs.
 */
class FaultInjectionTest {
  private static final int CALLS = 10_000;
  private static final int SIGMAS = 5;

  private final ManualTimeSource clock = new ManualTimeSource();
  private final List<Event> events = new ArrayList<>();

  private Registry registry(Map<String, String> environment) {
    Registry registry = Registry.builder().timeSource(clock).environment(environment).systemProperties(Map.of()).build();
    registry.subscribe(event -> {
      synchronized (events) {
        events.add(event);
      }
    });
    return registry;
  }

  /** The switch, and the settings given as alternating keys and values. */
  private static Map<String, String> chaos(String... keysAndValues) {
    Map<String, String> environment = new HashMap<>();
    environment.put("BRACE_CHAOS_ENABLED", "true");
    for (int i = 0; i < keysAndValues.length; i += 2) {
      environment.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return environment;
  }

  private List<Event> events(String kind) {
    synchronized (events) {
      return events.stream().filter(event -> event.kind().equals(kind)).toList();
    }
  }

  private static Stack<String> stack(Registry registry) {
    return Stack.<String>builder("recs").circuitBreaker("recs-api", b -> b.failureThreshold(1000)).build(registry);
  }

  private static long bound(double rate) {
    return Math.round(SIGMAS * Math.sqrt(CALLS * rate * (1 - rate)));
  }

  // ---- the switch ----

  /** @return the WARN lines of {@code dev.brace.chaos} while {@code action} ran */
  private static List<String> chaosWarnings(Runnable action) {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.brace.chaos");
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    Level before = logger.getLevel();
    logger.setLevel(Level.WARN);
    try {
      action.run();
    } finally {
      logger.detachAppender(appender);
      logger.setLevel(before);
    }
    return appender.list.stream().filter(line -> line.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void withoutTheSwitchNoSettingHasAnyEffectAndOneWarningSaysWhy() throws Exception {
    Registry[] built = new Registry[1];
    List<String> warnings = chaosWarnings(() -> built[0] = registry(Map.of("BRACE_CHAOS_RECS_API_FAULT_RATE", "1")));
    Registry registry = built[0];
    AtomicInteger reached = new AtomicInteger();
    Stack<String> stack = stack(registry);
    for (int i = 0; i < 5; i++) {
      assertEquals("ok", stack.call(() -> {
        reached.incrementAndGet();
        return "ok";
      }));
    }
    assertEquals(5, reached.get(), "every call reached the dependency");
    assertEquals(1, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith("[brace:chaos-off]"), warnings.get(0));
    assertTrue(warnings.get(0).contains("BRACE_CHAOS_RECS_API_FAULT_RATE"), warnings.get(0));
    assertTrue(warnings.get(0).contains("BRACE_CHAOS_ENABLED=true"), warnings.get(0));
    assertTrue(registry.describe().injections().isEmpty());
    assertFalse(registry.names().containsKey("chaos"));
  }

  @Test
  void aSwitchThatIsNeitherTrueNorFalseIsRefusedNamingIt() {
    Registry registry = registry(Map.of("BRACE_CHAOS_ENABLED", "yes", "BRACE_CHAOS_RECS_API_FAULT_RATE", "1"));
    ConfigurationException refused = assertThrows(ConfigurationException.class, () -> stack(registry));
    assertEquals("[brace:invalid-switch]", refused.tag());
    assertTrue(refused.getMessage().contains("BRACE_CHAOS_ENABLED=yes"), refused.getMessage());
  }

  @Test
  void theSwitchItselfIsNoTypo() {
    Registry registry = Registry.builder().strictConfiguration().timeSource(clock)
        .environment(Map.of("BRACE_CHAOS_ENABLED", "true")).systemProperties(Map.of("brace.chaos.enabled", "true")).build();
    assertTrue(registry.describe().enabled());
  }

  // ---- what an attempt gets ----

  @Test
  void anInjectedFaultNeverCallsTheDependencyAndSaysItWasInjected() {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_API_FAULT_RATE", "1"));
    AtomicInteger reached = new AtomicInteger();
    IOException fault = assertThrows(IOException.class, () -> stack(registry).call(() -> {
      reached.incrementAndGet();
      return "ok";
    }));
    assertEquals(0, reached.get());
    assertTrue(fault.getMessage().contains("injected by Brace's fault injection 'recs-api' into recs"), fault.getMessage());
    Event injected = events("chaos.injected").get(0);
    assertEquals("recs-api", injected.instance());
    assertEquals(Map.of("call", "recs", "kind", "circuitbreaker", "what", "fault", "fault", "java.io.IOException"),
        injected.attributes());
  }

  @Test
  void aMethodThatDeclaresNoIoExceptionGetsAnUncheckedInjectedFault() {
    Registry registry = registry(chaos("BRACE_CHAOS_PLAIN_FAULT_RATE", "1"));
    dev.brace.runtime.support.ResilientCall call = registry.resolve(dev.brace.runtime.support.LambdaCalls.builder("plain")
        .with(dev.brace.runtime.config.RetryConfig.builder("plain").maxAttempts(1)).build());
    InjectedFaultException fault = assertThrows(InjectedFaultException.class,
        () -> dev.brace.runtime.support.LambdaCalls.call(call, () -> "ok", null));
    assertInstanceOf(ResilienceException.class, fault);
    assertFalse(Refusal.class.isAssignableFrom(fault.getClass()), "an injected fault stands for the dependency, not for a refusal");
  }

  @Test
  void theConfiguredFaultIsThrown() {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "1", "BRACE_CHAOS_RECS_FAULT", "java.net.SocketTimeoutException"));
    SocketTimeoutException fault = assertThrows(SocketTimeoutException.class, () -> stack(registry).call(() -> "ok"));
    assertTrue(fault.getMessage().startsWith("injected by Brace"), fault.getMessage());
  }

  @Test
  void theFaultRateHoldsAndOneSeedRepeatsTheSameSequence() {
    List<Boolean> first = failures(registry(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "0.3", "BRACE_CHAOS_RECS_SEED", "42")));
    List<Boolean> again = failures(registry(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "0.3", "BRACE_CHAOS_RECS_SEED", "42")));
    List<Boolean> other = failures(registry(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "0.3", "BRACE_CHAOS_RECS_SEED", "43")));
    assertEquals(first, again, "the same seed and settings give the same sequence");
    assertNotEquals(first, other, "another seed gives another");
    long failed = first.stream().filter(b -> b).count();
    assertTrue(Math.abs(failed - CALLS * 0.3) <= bound(0.3), failed + " of " + CALLS + " failed at a rate of 0.3");
  }

  @Test
  void withoutASeedTheRateHoldsToo() {
    long failed = failures(registry(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "0.05"))).stream().filter(b -> b).count();
    assertTrue(Math.abs(failed - CALLS * 0.05) <= bound(0.05), failed + " of " + CALLS + " failed at a rate of 0.05");
  }

  private static List<Boolean> failures(Registry registry) {
    Stack<String> stack = stack(registry);
    List<Boolean> failed = new ArrayList<>(CALLS);
    for (int i = 0; i < CALLS; i++) {
      try {
        stack.call(() -> "ok");
        failed.add(false);
      } catch (Exception injected) {
        failed.add(true);
      }
    }
    return failed;
  }

  @Test
  void theLatencyRateHoldsAndEachDelayIsTheLatencyOnTheRegistrysClock() throws Exception {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_LATENCY", "250ms", "BRACE_CHAOS_RECS_LATENCY_RATE", "0.2",
        "BRACE_CHAOS_RECS_SEED", "7"));
    Stack<String> stack = stack(registry);
    long start = clock.nanoTime();
    AtomicInteger reached = new AtomicInteger();
    for (int i = 0; i < CALLS; i++) {
      assertEquals("ok", stack.call(() -> {
        reached.incrementAndGet();
        return "ok";
      }), "results are never invented");
    }
    assertEquals(CALLS, reached.get(), "a delayed attempt still calls the dependency");
    int delayed = events("chaos.injected").size();
    assertTrue(Math.abs(delayed - CALLS * 0.2) <= bound(0.2), delayed + " of " + CALLS + " delayed at 0.2");
    assertEquals(Duration.ofMillis(250).multipliedBy(delayed).toNanos(), clock.nanoTime() - start);
    assertEquals(250L, events("chaos.injected").get(0).attributes().get("latency_ms"));
  }

  // ---- the patterns meet it as a real failure or delay ----

  @Test
  void anInjectedLatencyPastTheTimeoutIsCutShortAndTheDependencyNeverCalled() {
    Registry registry = registry(chaos("BRACE_CHAOS_SLOW_LATENCY", "5s", "BRACE_CHAOS_SLOW_LATENCY_RATE", "1"));
    Stack<String> stack = Stack.<String>builder("slow").timeout(t -> t.duration("1s")).build(registry);
    AtomicInteger reached = new AtomicInteger();
    long start = clock.nanoTime();
    assertThrows(TimeoutExceededException.class, () -> stack.call(() -> {
      reached.incrementAndGet();
      return "ok";
    }));
    assertEquals(Duration.ofSeconds(1).toNanos(), clock.nanoTime() - start, "the deadline, not the latency");
    assertEquals(0, reached.get());
    assertFalse(Thread.currentThread().isInterrupted(), "the deadline's interrupt is Brace's own and cleared");
  }

  @Test
  void aCallerInterruptedInAnInjectedLatencyKeepsItsInterruptAndNothingCountsIt() {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_API_LATENCY", "5s", "BRACE_CHAOS_RECS_API_LATENCY_RATE", "1"));
    Stack<String> stack = Stack.<String>builder("recs").retry(r -> r.maxAttempts(3))
        .circuitBreaker("recs-api", b -> b.failureThreshold(1)).build(registry);
    AtomicInteger reached = new AtomicInteger();
    Thread.currentThread().interrupt();
    try {
      ResilienceException stopped = assertThrows(ResilienceException.class, () -> stack.call(() -> {
        reached.incrementAndGet();
        return "ok";
      }));
      assertTrue(stopped.getMessage().contains("was interrupted"), stopped.getMessage());
      assertTrue(Thread.currentThread().isInterrupted(), "the caller's interrupt is kept");
    } finally {
      Thread.interrupted();
    }
    assertEquals(0, reached.get());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("recs-api").state(), "the caller's doing, not the dependency's");
    assertEquals(1, events("chaos.injected").size(), "not retried");
  }

  @Test
  void anAbandoningTimeoutAbandonsAnInjectedLatency() {
    Registry registry = Registry.builder().environment(chaos("BRACE_CHAOS_SLOW_LATENCY", "30s", "BRACE_CHAOS_SLOW_LATENCY_RATE", "1"))
        .systemProperties(Map.of()).build();
    Stack<String> stack = Stack.<String>builder("slow").timeout(t -> t.duration("50ms").mode(Timeout.Mode.ABANDON)).build(registry);
    AtomicInteger reached = new AtomicInteger();
    long start = System.nanoTime();
    assertThrows(TimeoutExceededException.class, () -> stack.call(() -> {
      reached.incrementAndGet();
      return "ok";
    }));
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "released at the deadline");
    assertEquals(0, reached.get());
  }

  @Test
  void retriesAnswerInjectedFaultsAndTheFallbackAnswersTheLast() throws Exception {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "1"));
    Stack<String> stack = Stack.<String>builder("recs").retry(r -> r.maxAttempts(3).delay("100ms"))
        .fallback(failure -> "fallback: " + failure.getClass().getSimpleName()).build(registry);
    AtomicInteger reached = new AtomicInteger();
    assertEquals("fallback: IOException", stack.call(() -> {
      reached.incrementAndGet();
      return "ok";
    }));
    assertEquals(0, reached.get());
    assertEquals(3, events("retry.attempt_failed").size());
    assertEquals(3, events("chaos.injected").size(), "one draw per attempt");
    assertEquals(1, events("fallback.used").size());
  }

  @Test
  void injectedFaultsOpenTheBreakerWhichThenRefusesWithoutADraw() {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_API_FAULT_RATE", "1"));
    Stack<String> stack = Stack.<String>builder("recs").circuitBreaker("recs-api", b -> b.failureThreshold(3)).build(registry);
    for (int i = 0; i < 3; i++) {
      assertThrows(IOException.class, () -> stack.call(() -> "ok"));
    }
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("recs-api").state());
    assertThrows(CircuitOpenException.class, () -> stack.call(() -> "ok"));
    assertEquals(3, events("chaos.injected").size(), "a refused attempt never reaches the injection");
  }

  @Test
  void aRememberedAnswerServesAnInjectedFaultTurnedOnLive() throws Exception {
    Registry registry = registry(Map.of());
    Stack<String> stack = Stack.<String>builder("recs").staleIfError(s -> s.maxAge("1h")).build(registry);
    assertEquals("fresh", stack.call("user-1", () -> "fresh"));
    registry.reconfigure(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "1"), Map.of());
    AtomicInteger reached = new AtomicInteger();
    assertEquals("fresh", stack.call("user-1", () -> {
      reached.incrementAndGet();
      return "new";
    }));
    assertEquals(0, reached.get());
    assertEquals(1, events("stale.served").size());
    registry.reconfigure(Map.of(), Map.of());
    assertEquals("new", stack.call("user-1", () -> "new"), "switched off live");
  }

  // ---- asynchronous calls ----

  @Test
  void anAsynchronousAttemptFailsWithTheFaultWithoutCallingTheDependency() {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "1"));
    AtomicInteger reached = new AtomicInteger();
    CompletableFuture<String> call = stack(registry).callAsync(() -> {
      reached.incrementAndGet();
      return CompletableFuture.completedFuture("ok");
    });
    ExecutionException failed = assertThrows(ExecutionException.class, call::get);
    assertInstanceOf(IOException.class, failed.getCause());
    assertEquals(0, reached.get());
  }

  @Test
  void anAsynchronousLatencyIsADelayOnTheScheduler() throws Exception {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_LATENCY", "2s", "BRACE_CHAOS_RECS_LATENCY_RATE", "1"));
    AtomicInteger reached = new AtomicInteger();
    CompletableFuture<String> call = stack(registry).callAsync(() -> {
      reached.incrementAndGet();
      return CompletableFuture.completedFuture("ok");
    });
    clock.advance(Duration.ofMillis(1999));
    assertFalse(call.isDone());
    assertEquals(0, reached.get());
    clock.advance(Duration.ofMillis(1));
    assertEquals("ok", call.get());
    assertEquals(1, reached.get());
  }

  @Test
  void anAsynchronousLatencyPastTheDeadlineTimesOutAndTheDependencyIsNeverCalled() {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_LATENCY", "5s", "BRACE_CHAOS_RECS_LATENCY_RATE", "1"));
    Stack<String> stack = Stack.<String>builder("recs").timeout(t -> t.duration("1s")).build(registry);
    AtomicInteger reached = new AtomicInteger();
    CompletableFuture<String> call = stack.callAsync(() -> {
      reached.incrementAndGet();
      return CompletableFuture.completedFuture("ok");
    });
    clock.advance(Duration.ofSeconds(1));
    ExecutionException failed = assertThrows(ExecutionException.class, call::get);
    assertInstanceOf(TimeoutExceededException.class, failed.getCause());
    clock.advance(Duration.ofSeconds(10));
    assertEquals(0, reached.get(), "the delayed call was cancelled with the attempt");
  }

  @Test
  void anAsynchronousRetryDrawsAgainForEachAttempt() throws Exception {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "0.5", "BRACE_CHAOS_RECS_SEED", "1"));
    Stack<String> stack = Stack.<String>builder("recs").retry(r -> r.maxAttempts(20).delay("10ms")).build(registry);
    CompletableFuture<String> call = stack.callAsync(() -> CompletableFuture.completedFuture("ok"));
    while (!call.isDone()) {
      clock.advance(Duration.ofMillis(10));
    }
    assertEquals("ok", call.get());
    assertEquals(events("retry.attempt_failed").size(), events("chaos.injected").size());
  }

  // ---- which name decides ----

  @Test
  void theCallsOwnNameDecidesOverAnInstancesName() {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_API_FAULT_RATE", "1", "BRACE_CHAOS_RECS_FAULT_RATE", "0"));
    Stack<String> recs = stack(registry);
    Stack<String> other = Stack.<String>builder("other").circuitBreaker("recs-api", b -> b.failureThreshold(1000)).build(registry);
    assertEquals("ok", assertDoesNotThrow(() -> recs.call(() -> "ok")), "recs sets its own rate, 0");
    assertThrows(IOException.class, () -> other.call(() -> "ok"), "other has the breaker's");
    assertEquals(List.of("stack 'other'"), registry.describe(Kind.CHAOS, "recs-api").sites());
  }

  private static <T> T assertDoesNotThrow(java.util.concurrent.Callable<T> call) {
    return org.junit.jupiter.api.Assertions.assertDoesNotThrow(call::call);
  }

  @Test
  void aNameSwitchedOffLeavesTheDecisionToTheNext() {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_FAULT_RATE", "1", "BRACE_CHAOS_RECS_ENABLED", "false",
        "BRACE_CHAOS_RECS_API_FAULT_RATE", "1", "BRACE_CHAOS_RECS_API_FAULT", "java.net.SocketTimeoutException"));
    assertThrows(SocketTimeoutException.class, () -> stack(registry).call(() -> "ok"));
  }

  // ---- every layer ----

  @Test
  void programmaticStackPropertyAndEnvironmentSettingsLayerAsEveryOther() {
    Supplier<Registry.Builder> builder = () -> Registry.builder().timeSource(clock)
        .chaos("recs", c -> c.faultRate(1).fault(IllegalStateException.class));
    Registry programmatic = builder.get().environment(chaos()).systemProperties(Map.of()).build();
    assertThrows(IllegalStateException.class, () -> stack(programmatic).call(() -> "ok"));

    Registry withProperty = builder.get().environment(chaos("BRACE_CHAOS_RECS_FAULT", "java.lang.UnsupportedOperationException"))
        .systemProperties(Map.of("brace.chaos.recs.fault", "java.lang.ArithmeticException")).build();
    assertThrows(ArithmeticException.class, () -> stack(withProperty).call(() -> "ok"));
    Description.Instance described = withProperty.describe(Kind.CHAOS, "recs");
    assertEquals("system property brace.chaos.recs.fault", described.setting("fault").orElseThrow().source().toString());
    assertEquals("programmatic", described.setting("faultRate").orElseThrow().source().toString());

    Registry stackPart = registry(chaos());
    Stack<String> rehearsed = Stack.<String>builder("recs").chaos(c -> c.faultRate(1)).build(stackPart);
    assertThrows(IOException.class, () -> rehearsed.call(() -> "ok"));
    assertEquals("annotation at stack 'recs'",
        stackPart.describe(Kind.CHAOS, "recs").setting("faultRate").orElseThrow().source().toString());
  }

  // ---- visible ----

  @Test
  void describeNamesAndSettingsListTheActiveInjectionsOnly() {
    Registry registry = registry(chaos("BRACE_CHAOS_RECS_API_FAULT_RATE", "0.25", "BRACE_CHAOS_RECS_API_SEED", "3"));
    stack(registry);
    Stack.<String>builder("quiet").bulkhead("pool", b -> b.maxConcurrent(3)).build(registry);
    Description description = registry.describe();
    assertEquals(1, description.injections().size());
    assertEquals("recs-api", description.injections().get(0).name());
    assertEquals(List.of("stack 'recs'"), description.injections().get(0).sites());
    assertTrue(description.toString().contains("fault injection active: 1 name"), description.toString());
    assertTrue(description.call("recs").orElseThrow().instances().stream().anyMatch(i -> i.kind() == Kind.CHAOS));
    assertTrue(description.call("quiet").orElseThrow().instances().stream().noneMatch(i -> i.kind() == Kind.CHAOS));
    assertEquals(java.util.Set.of("recs-api"), registry.names().get("chaos"));
    assertEquals("0.25", registry.settings("chaos", "recs-api").get("faultRate"));
    assertEquals("3", registry.settings("chaos", "recs-api").get("seed"));
  }

  @Test
  void aWarningSaysWhichInjectionIsActiveOnceAndAgainWhenItChanges() {
    List<String> warnings = chaosWarnings(() -> {
      Registry registry = registry(chaos("BRACE_CHAOS_RECS_API_FAULT_RATE", "0.5"));
      stack(registry);
      Stack.<String>builder("other").circuitBreaker("recs-api", b -> b.failureThreshold(1000)).build(registry);
      registry.reconfigure(chaos("BRACE_CHAOS_RECS_API_FAULT_RATE", "0.5", "BRACE_RETRY_X_MAX_ATTEMPTS", "2"), Map.of());
      registry.reconfigure(chaos("BRACE_CHAOS_RECS_API_FAULT_RATE", "0.75"), Map.of());
    }).stream().filter(line -> line.startsWith("[brace:chaos-active]")).toList();
    assertEquals(2, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("fails 50% of attempts with java.io.IOException"), warnings.get(0));
    assertTrue(warnings.get(0).contains("environment BRACE_CHAOS_RECS_API_FAULT_RATE"), warnings.get(0));
    assertTrue(warnings.get(1).contains("fails 75% of attempts"), warnings.get(1));
  }

  // ---- live ----

  @Test
  void reconfigurationSwitchesAnInjectionOnAndOffAndReportsIt() throws Exception {
    Registry registry = registry(Map.of());
    Stack<String> stack = stack(registry);
    assertEquals("ok", stack.call(() -> "ok"));

    registry.reconfigure(chaos("BRACE_CHAOS_RECS_API_FAULT_RATE", "1"), Map.of());
    assertThrows(IOException.class, () -> stack.call(() -> "ok"));
    assertEquals(List.of("recs-api"), registry.describe().injections().stream().map(Description.Instance::name).toList());

    registry.reconfigure(chaos("BRACE_CHAOS_RECS_API_FAULT_RATE", "0.5"), Map.of());
    registry.reconfigure(Map.of(), Map.of());
    assertEquals("ok", stack.call(() -> "ok"));
    assertTrue(registry.describe().injections().isEmpty());
    List<String> changes = events("config.changed").stream().filter(event -> "chaos".equals(event.attributes().get("kind")))
        .map(event -> event.attributes().get("property") + ":" + event.attributes().get("from") + "->" + event.attributes().get("to"))
        .toList();
    assertEquals(List.of("enabled:false->true", "faultRate:1.0->0.5", "enabled:true->false"), changes);
  }

  @Test
  void aSeededSequenceGoesOnThroughAReconfigurationOfSomethingElse() {
    Map<String, String> seeded = chaos("BRACE_CHAOS_RECS_FAULT_RATE", "0.5", "BRACE_CHAOS_RECS_SEED", "11");
    List<Boolean> straight = new ArrayList<>();
    Stack<String> one = stack(registry(seeded));
    for (int i = 0; i < 40; i++) {
      straight.add(failed(one));
    }
    Registry registry = registry(seeded);
    Stack<String> two = stack(registry);
    List<Boolean> interrupted = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      if (i == 20) {
        Map<String, String> more = new HashMap<>(seeded);
        more.put("BRACE_CIRCUITBREAKER_RECS_API_FAILURE_THRESHOLD", "2000");
        registry.reconfigure(more, Map.of());
      }
      interrupted.add(failed(two));
    }
    assertEquals(straight, interrupted);
  }

  private static boolean failed(Stack<String> stack) {
    try {
      stack.call(() -> "ok");
      return false;
    } catch (Exception injected) {
      return true;
    }
  }
}
