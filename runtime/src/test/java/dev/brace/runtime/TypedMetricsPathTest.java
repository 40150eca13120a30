package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.Kind;
import dev.brace.runtime.metrics.CallMetrics;
import dev.brace.runtime.metrics.InstanceMetrics;
import dev.brace.runtime.metrics.MetricsListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The typed metrics path ({@link Registry#bindMetrics}): what a bound listener hears, with which
 * durations and names; that a call reads the clock only as often as its meters need (the call's
 * start, the limiter's admission, which starts the attempt, and the outcome, which ends both the
 * attempt and the call); and that with nothing bound, or only a typed listener, a call builds no
 * event and allocates nothing.
 */
class TypedMetricsPathTest {
  private static final int CALLS = 50;
  private static final Callable<String> OK = () -> "ok";
  private static final Callable<String> DOWN = () -> {
    throw new IOException("down");
  };

  /** Retry, breaker, limiter and bulkhead: the stack the benchmarks measure. */
  private static Stack<String> fourPatterns(Registry registry, String name, int maxAttempts) {
    return fourPatterns(registry, name, maxAttempts, b -> b.failureThreshold(5));
  }

  private static Stack<String> fourPatterns(
      Registry registry, String name, int maxAttempts, Consumer<CircuitBreakerConfig.Builder> breaker) {
    return Stack.<String>builder(name)
        .retry(r -> r.maxAttempts(maxAttempts).delay("0ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker(name, breaker)
        .rateLimit(name, l -> l.permits(1_000_000_000).per("1s"))
        .bulkhead(name, b -> b.maxConcurrent(10))
        .build(registry);
  }

  private static long readsPerCall(CountingClock time, Stack<String> stack, Callable<String> call) {
    Runnable once = () -> {
      try {
        stack.call(call);
      } catch (Exception expected) {
        // a failing call's failure
      }
    };
    once.run();
    long before = time.reads();
    for (int i = 0; i < CALLS; i++) {
      once.run();
    }
    long reads = time.reads() - before;
    assertEquals(0, reads % CALLS, "every call reads the clock equally often: " + reads);
    return reads / CALLS;
  }

  private static Registry registry(TimeSource time, ManualTimeSource manual) {
    return Registry.builder().timeSource(time).scheduler(manual.scheduler()).build();
  }

  @Test
  void aSuccessReadsTheClockThreeTimesWithMetricsBoundAndOnceWithout() throws Exception {
    CountingClock time = new CountingClock();
    Registry registry = registry(time, time.clock());
    Stack<String> stack = fourPatterns(registry, "Api.call", 3, b -> b.failureThreshold(5));

    assertEquals(1, readsPerCall(time, stack, OK), "the limiter's admission only");
    try (AutoCloseable bound = registry.bindMetrics(new RecordedMetrics())) {
      assertEquals(3, readsPerCall(time, stack, OK), "the call's start, the admission, the outcome");
    }
    assertEquals(1, readsPerCall(time, stack, OK), "unbound: as before");
    try (AutoCloseable events = registry.subscribeForMetrics(event -> {})) {
      assertEquals(3, readsPerCall(time, stack, OK), "a metrics event listener needs the same");
    }
  }

  @Test
  void aFailingCallReadsTheClockOnceMoreAtItsStartAndOnceMorePerAttemptOutcome() throws Exception {
    CountingClock time = new CountingClock();
    Registry registry = registry(time, time.clock());
    // The benchmarks' failing stack: a rate breaker that counts every failure and never opens.
    Stack<String> stack = fourPatterns(registry, "Api.down", 2,
        b -> b.failureRate(0.5).window("30s").minimumCalls(Integer.MAX_VALUE));

    long unbound = readsPerCall(time, stack, DOWN);
    registry.bindMetrics(new RecordedMetrics());
    assertEquals(unbound + 3, readsPerCall(time, stack, DOWN),
        "the start, and each of the two attempts' outcome, the last ending the call too");
  }

  @Test
  void aCallOutOfItsDeadlineAndEachInjectionAreReportedToTheirInstancesHandles() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = Registry.builder().timeSource(clock).scheduler(clock.scheduler())
        .systemProperties(java.util.Map.of()).environment(java.util.Map.of("BRACE_CHAOS_ENABLED", "true")).build();
    RecordedMetrics metrics = new RecordedMetrics();
    registry.bindMetrics(metrics);
    Stack<String> late = Stack.<String>builder("Api.late").retry(r -> r.maxAttempts(1)).build(registry);
    Stack<String> rehearsed = Stack.<String>builder("Api.rehearsed").retry(r -> r.maxAttempts(2).delay("0ms"))
        .chaos(c -> c.faultRate(1).latency("5ms").latencyRate(1)).build(registry);

    try (Deadline.Scope request = Deadline.open(Duration.ofMillis(10), clock)) {
      clock.advance(Duration.ofMillis(20));
      assertThrows(DeadlineExceededException.class, () -> late.call(OK));
    }
    assertThrows(Exception.class, () -> rehearsed.call(OK));

    assertEquals(List.of("deadline Api.late deadlineExceeded"), metrics.starting("deadline "));
    assertEquals(List.of("chaos Api.rehearsed injected call latency", "chaos Api.rehearsed injected call fault",
        "chaos Api.rehearsed injected call latency", "chaos Api.rehearsed injected call fault"),
        metrics.starting("chaos "), "both attempts, each delayed and then failed");
  }

  @Test
  void theListenerHearsEachAttemptAndHowTheCallEndedWithDurationsOnTheRegistrysClock() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = registry(clock, clock);
    RecordedMetrics metrics = new RecordedMetrics();
    registry.bindMetrics(metrics);
    Stack<String> stack = Stack.<String>builder("Api.get")
        .retry(r -> r.maxAttempts(2).delay("10ms").jitter(Retry.Jitter.NONE))
        .circuitBreaker("api", b -> b.failureThreshold(2).resetTimeout("1m"))
        .build(registry);

    assertEquals("ok", stack.call(() -> {
      clock.sleep(Duration.ofMillis(3));
      return "ok";
    }));
    assertThrows(IOException.class, () -> stack.call(() -> {
      clock.sleep(Duration.ofMillis(5));
      throw new IOException("down");
    }));
    assertThrows(CircuitOpenException.class, () -> stack.call(OK));

    assertEquals(List.of(
        "circuitbreaker api created",
        "Api.get attemptSucceeded 3000000",
        "Api.get succeeded 3000000",
        "Api.get attemptFailed 5000000",
        "retry Api.get attemptFailed retried",
        "circuitbreaker api transitioned CLOSED OPEN",
        "Api.get attemptFailed 5000000",
        "retry Api.get attemptFailed exhausted",
        "Api.get failed 20000000",
        "circuitbreaker api rejected",
        "Api.get rejected circuitbreaker api 0"), metrics.lines,
        "the failed call: two attempts of 5 ms and the 10 ms backoff; a refusal is not retried");
    assertEquals(List.of("call Api.get", "retry Api.get", "circuitbreaker api"), metrics.resolved,
        "each handle is asked for once, and kept");
  }

  @Test
  void aCallItsFirstAttemptEndsAtOnceIsOneReportOfTheAttemptAndTheCall() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = registry(clock, clock);
    ReportsByMethod metrics = new ReportsByMethod();
    registry.bindMetrics(metrics);
    Stack<String> stack = fourPatterns(registry, "Api.call", 3);

    assertEquals("ok", stack.call(() -> {
      clock.sleep(Duration.ofMillis(3));
      return "ok";
    }));

    assertEquals(List.of("attemptAndCallSucceeded [3000000, 3000000]"), metrics.lines,
        "the one outcome ends both, so both durations come in one report and neither alone");
  }

  @Test
  void namesReachTheListenerRedacted() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = registry(clock, clock);
    RecordedMetrics metrics = new RecordedMetrics();
    registry.bindMetrics(metrics);
    Stack<String> stack = Stack.<String>builder("Api.tenant")
        .circuitBreaker("tenant", b -> b.failureThreshold(1).key("{tenant}"))
        .build(registry);
    String key = "https://ada:secret@host/x?token=abc";

    assertThrows(IOException.class, () -> stack.call(key, DOWN));
    assertThrows(CircuitOpenException.class, () -> stack.call(key, OK));

    String shown = "tenant[https://host/x?token=REDACTED]";
    assertTrue(metrics.resolved.contains("circuitbreaker " + shown), metrics.resolved.toString());
    assertTrue(metrics.lines.contains("Api.tenant rejected circuitbreaker " + shown + " 0"), metrics.lines.toString());
    assertTrue(metrics.lines.stream().noneMatch(line -> line.contains("secret") || line.contains("abc")), metrics.lines.toString());
  }

  @Test
  void aListenerThatThrowsIsIgnoredAndTheOthersStillHear() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = registry(clock, clock);
    registry.bindMetrics(new Throwing(false));
    registry.bindMetrics(new Throwing(true));
    RecordedMetrics metrics = new RecordedMetrics();
    registry.bindMetrics(metrics);
    Stack<String> stack = fourPatterns(registry, "Api.call", 3);

    assertEquals("ok", stack.call(OK));
    assertThrows(IOException.class, () -> fourPatterns(registry, "Api.down", 1).call(DOWN));

    assertTrue(metrics.lines.contains("Api.call succeeded 0"), metrics.lines.toString());
    assertTrue(metrics.lines.contains("Api.down failed 0"), metrics.lines.toString());
  }

  @Test
  void closingABindingStopsItsReportsAndANewOneIsAskedAfresh() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = registry(clock, clock);
    Stack<String> stack = fourPatterns(registry, "Api.call", 3);
    RecordedMetrics first = new RecordedMetrics();
    AutoCloseable binding = registry.bindMetrics(first);
    stack.call(OK);
    binding.close();
    stack.call(OK);
    RecordedMetrics second = new RecordedMetrics();
    registry.bindMetrics(second);
    stack.call(OK);

    assertEquals(List.of("Api.call attemptSucceeded 0", "Api.call succeeded 0"), first.lines);
    assertEquals(List.of("Api.call attemptSucceeded 0", "Api.call succeeded 0"), second.lines);
    assertEquals(List.of("call Api.call"), second.resolved);
  }

  @Test
  void aCallThatBeganBeforeTheBindingReportsNoEnd() throws Exception {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = registry(clock, clock);
    RecordedMetrics metrics = new RecordedMetrics();
    Stack<String> stack = Stack.<String>builder("Api.call").retry(r -> r.maxAttempts(1)).build(registry);

    stack.call(() -> {
      registry.bindMetrics(metrics);
      return "ok";
    });

    assertEquals(List.of(), metrics.lines, "neither its attempt nor the call was timed");
  }

  @Test
  void withNothingBoundOrOnlyATypedListenerACallAllocatesNothing() throws Exception {
    Registry registry = Registry.builder().build();
    Stack<String> stack = fourPatterns(registry, "Api.call", 3);
    assertEquals(0, bytesPerCall(stack), "nothing bound");

    Counting counting = new Counting();
    registry.bindMetrics(counting);
    assertEquals(0, bytesPerCall(stack), "a typed listener: no event, no boxing, no lookup");
    assertTrue(counting.reports.get() >= 2 * 20_000, "it heard every call: " + counting.reports.get());
  }

  @Test
  void withBraceLoggersAtInfoAHappyCallStillAllocatesNothing() throws Exception {
    ch.qos.logback.classic.Logger brace = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("dev.brace");
    ch.qos.logback.classic.Level before = brace.getLevel();
    brace.setLevel(ch.qos.logback.classic.Level.INFO);
    try {
      Registry registry = Registry.builder().build();
      registry.bindMetrics(new Counting());
      // Its events are DEBUG at most (a refusal, a wait): a service's INFO log asks for none of them.
      assertEquals(0, bytesPerCall(fourPatterns(registry, "Api.call", 3)));
    } finally {
      brace.setLevel(before);
    }
  }

  /** Bytes this thread allocated per call once the call path is warm; rounded down. */
  private static long bytesPerCall(Stack<String> stack) throws Exception {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    int calls = 20_000;
    for (int i = 0; i < calls; i++) {
      stack.call(OK);
    }
    long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < calls; i++) {
      stack.call(OK);
    }
    return (threads.getCurrentThreadAllocatedBytes() - before) / calls;
  }

  /**
   * Records each report a call's handle receives, by method and arguments: a proxy, so that it
   * also sees the reports an interface's default method would otherwise split.
   */
  private static final class ReportsByMethod implements MetricsListener {
    final List<String> lines = new ArrayList<>();

    @Override
    public CallMetrics call(String callName) {
      return (CallMetrics) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {CallMetrics.class}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
              return method.invoke(this, args);
            }
            lines.add(method.getName() + " " + java.util.Arrays.toString(args));
            return null;
          });
    }

    @Override
    public InstanceMetrics instance(Kind kind, String name) {
      return null;
    }

    @Override
    public void instanceCreated(Kind kind, String name, boolean keyed) {}
  }

  /** Counts reports without allocating: one handle for every call and instance. */
  private static final class Counting implements MetricsListener, CallMetrics, InstanceMetrics {
    final AtomicLong reports = new AtomicLong();

    @Override
    public CallMetrics call(String callName) {
      return this;
    }

    @Override
    public InstanceMetrics instance(Kind kind, String name) {
      return this;
    }

    @Override
    public void instanceCreated(Kind kind, String name, boolean keyed) {}

    @Override
    public void attemptSucceeded(long nanos) {
      reports.incrementAndGet();
    }

    @Override
    public void attemptFailed(long nanos) {
      reports.incrementAndGet();
    }

    @Override
    public void succeeded(long nanos) {
      reports.incrementAndGet();
    }

    @Override
    public void failed(long nanos) {
      reports.incrementAndGet();
    }

    @Override
    public void rejected(Kind by, String instance, long nanos) {
      reports.incrementAndGet();
    }

    @Override
    public void timedOut(String timeout, long nanos) {
      reports.incrementAndGet();
    }

    @Override
    public void fellBack(String fallback, long nanos) {
      reports.incrementAndGet();
    }

    @Override
    public void rejected() {
      reports.incrementAndGet();
    }

    @Override
    public void waited(long nanos) {
      reports.incrementAndGet();
    }

    @Override
    public void transitioned(CircuitState from, CircuitState to) {
      reports.incrementAndGet();
    }

    @Override
    public void attemptFailed(boolean retried) {
      reports.incrementAndGet();
    }

    @Override
    public void hedgeStarted() {
      reports.incrementAndGet();
    }

    @Override
    public void hedgeBudgetExhausted() {
      reports.incrementAndGet();
    }

    @Override
    public void hedgeWon(boolean first) {
      reports.incrementAndGet();
    }

    @Override
    public void timedOut() {
      reports.incrementAndGet();
    }

    @Override
    public void deadlineExceeded() {
      reports.incrementAndGet();
    }

    @Override
    public void injected(String named, boolean fault) {
      reports.incrementAndGet();
    }

    @Override
    public void staleServed() {
      reports.incrementAndGet();
    }

    @Override
    public void staleMissing() {
      reports.incrementAndGet();
    }
  }

  /** Throws on every report; or already when asked for a handle. */
  private static final class Throwing implements MetricsListener {
    private final boolean atResolution;

    Throwing(boolean atResolution) {
      this.atResolution = atResolution;
    }

    @Override
    public CallMetrics call(String callName) {
      if (atResolution) {
        throw new IllegalStateException("no handle for " + callName);
      }
      return (CallMetrics) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {CallMetrics.class}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
              return method.invoke(this, args);
            }
            throw new UncheckedIOException(new IOException("meters down"));
          });
    }

    @Override
    public InstanceMetrics instance(Kind kind, String name) {
      if (atResolution) {
        throw new AssertionError("no handle for " + name);
      }
      return (InstanceMetrics) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {InstanceMetrics.class}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
              return method.invoke(this, args);
            }
            throw new UncheckedIOException(new IOException("meters down"));
          });
    }

    @Override
    public void instanceCreated(Kind kind, String name, boolean keyed) {
      throw new IllegalStateException("no gauges");
    }
  }
}
