package dev.brace.runtime.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.RecordedMetrics;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The protocol a generated synchronous method follows to call its delegate itself ({@link
 * ResilientCall#instant}, {@link ResilientCall#admitNow}, {@link ResilientCall#admitted}, {@link
 * ResilientCall#succeeded}, {@link ResilientCall#failed}, {@link ResilientCall#staged}), driven
 * exactly as the generated code drives it. Each case checks who called the delegate (the method
 * itself, or the runtime through the slot invoker), what the call answered, and that everything
 * the attempt took came back once.
 */
class DirectDelegateCallTest {
  /** The interface a wrapper is generated for. */
  interface Stock {
    int count(String sku) throws IOException;

    void reset(String sku) throws IOException;
  }

  /** A delegate answering from a script: a number, or a throwable to throw. */
  static final class ScriptedStock implements Stock {
    final Deque<Object> script = new ArrayDeque<>();
    int calls;

    @Override
    public int count(String sku) throws IOException {
      calls++;
      Object next = script.isEmpty() ? 7 : script.poll();
      if (next instanceof IOException failure) {
        throw failure;
      }
      if (next instanceof RuntimeException failure) {
        throw failure;
      }
      if (next instanceof Error failure) {
        throw failure;
      }
      return (Integer) next;
    }

    @Override
    public void reset(String sku) throws IOException {
      count(sku);
    }
  }

  private static final AtomicInteger SLOT_CALLS = new AtomicInteger();

  private static Object delegateTo(int method, Object target, Object a, Object b, Object c, Object d, long x, long y)
      throws Throwable {
    SLOT_CALLS.incrementAndGet();
    Stock delegate = (Stock) target;
    switch (method) {
      case 0:
        return delegate.count((String) a);
      case 1:
        delegate.reset((String) a);
        return null;
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure) {
    return -1;
  }

  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).scheduler(clock.scheduler())
      .environment(Map.of()).systemProperties(Map.of()).build();
  private final ScriptedStock delegate = new ScriptedStock();

  private final List<Event> events = new CopyOnWriteArrayList<>();

  DirectDelegateCallTest() {
    SLOT_CALLS.set(0);
    registry.subscribeForMetrics(events::add);
  }

  private long count(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).count();
  }

  private static CallDefinition.Builder count() {
    return CallDefinition.builder("Stock.count").invokes(DirectDelegateCallTest::delegateTo, 0);
  }

  /** What the processor generates for {@code int count(String sku) throws IOException}. */
  private int count(ResilientCall call, String sku) throws IOException {
    long at = call.instant();
    Object held = call.admitNow(at);
    if (call.admitted(held)) {
      try {
        int result = this.delegate.count(sku);
        call.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = call.failed(held, at, failure);
      }
    }
    return call.staged(held, at, this.delegate, sku, null, null, null, 0L, 0L);
  }

  /** What the processor generates for {@code void reset(String sku) throws IOException}. */
  private void reset(ResilientCall call, String sku) throws IOException {
    long at = call.instant();
    Object held = call.admitNow(at);
    if (call.admitted(held)) {
      try {
        this.delegate.reset(sku);
        call.succeeded(held, at);
        return;
      } catch (Throwable failure) {
        held = call.failed(held, at, failure);
      }
    }
    call.staged(held, at, this.delegate, sku, null, null, null, 0L, 0L);
  }

  private ResilientCall fourPatterns(String name) {
    return registry.resolve(count()
        .with(RetryConfig.builder("Stock.count").maxAttempts(3).delay("0ms").jitter(Retry.Jitter.NONE))
        .with(CircuitBreakerConfig.builder(name).failureThreshold(50))
        .with(RateLimitConfig.builder(name).permits(100).per("1s").burst(100).maxWait("0ms"))
        .with(BulkheadConfig.builder(name).maxConcurrent(2))
        .build());
  }

  @Test
  void anAdmittedAttemptCallsTheDelegateItselfAndGivesEverythingBack() throws Exception {
    ResilientCall call = fourPatterns("direct-ok");

    assertEquals(7, count(call, "a"));
    reset(call, "a");

    assertEquals(2, delegate.calls);
    assertEquals(0, SLOT_CALLS.get(), "the runtime never called the delegate");
    assertEquals(2, registry.bulkhead("direct-ok").available());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("direct-ok").state());
  }

  @Test
  void aCallNotAdmittedNowGoesTheStagedWayAndIsRefusedThere() throws Exception {
    ResilientCall call = registry.resolve(count()
        .with(CircuitBreakerConfig.builder("direct-open").failureThreshold(1).resetTimeout("10s"))
        .build());
    delegate.script.add(new IOException("down"));
    assertThrows(IOException.class, () -> count(call, "a"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("direct-open").state());

    Object held = call.admitNow(call.instant());
    assertFalse(call.admitted(held));
    assertThrows(CircuitOpenException.class, () -> call.staged(held, 0L, delegate, "a", null, null, null, 0L, 0L));
    assertEquals(1, delegate.calls);

    clock.advance(Duration.ofSeconds(10));
    // The half-open probe is decided the staged way, through the slot invoker.
    assertEquals(7, count(call, "a"));
    assertEquals(1, SLOT_CALLS.get());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("direct-open").state());
  }

  @Test
  void aFullBulkheadHandsItsTokenToTheStagedWayWhichTakesNoOtherAndRefuses() throws Exception {
    ResilientCall call = registry.resolve(count()
        .with(CircuitBreakerConfig.builder("direct-full").failureThreshold(1))
        .with(RateLimitConfig.builder("direct-full").permits(2).per("1h").burst(2).maxWait("0ms"))
        .with(BulkheadConfig.builder("direct-full").maxConcurrent(1))
        .build());
    long at = call.instant();
    Object holding = call.admitNow(at);
    assertTrue(call.admitted(holding));

    Object full = call.admitNow(call.instant());
    assertFalse(call.admitted(full));
    assertThrows(BulkheadFullException.class, () -> call.staged(full, 0L, delegate, "b", null, null, null, 0L, 0L));
    call.succeeded(holding, at);

    // Two tokens, one per call: the refused call's was not taken twice, and is gone.
    assertThrows(RateLimitedException.class, () -> count(call, "c"));
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("direct-full").state(), "a refusal is no failure");
    assertEquals(1, registry.bulkhead("direct-full").available());
    assertEquals(0, delegate.calls);
  }

  @Test
  void aFullBulkheadThatFreesAPermitWithinItsWaitAdmitsTheHeldAttemptWithTheTokenItTook() throws Exception {
    Registry real = Registry.builder().environment(Map.of()).systemProperties(Map.of()).build();
    ResilientCall call = real.resolve(count()
        .with(RateLimitConfig.builder("direct-waits").permits(2).per("1h").burst(2).maxWait("0ms"))
        .with(BulkheadConfig.builder("direct-waits").maxConcurrent(1).maxWait("30s"))
        .build());
    long at = call.instant();
    Object holding = call.admitNow(at);
    assertTrue(call.admitted(holding));
    long fullAt = call.instant();
    Object full = call.admitNow(fullAt);
    assertFalse(call.admitted(full));

    CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(
        () -> call.staged(full, fullAt, delegate, "b", null, null, null, 0L, 0L));
    call.succeeded(holding, at);

    assertEquals(7, waiting.get(10, TimeUnit.SECONDS));
    assertEquals(1, SLOT_CALLS.get(), "the waiting attempt ran the staged way");
    // Two tokens, one per call: the waiting attempt kept the one it took.
    assertThrows(RateLimitedException.class, () -> count(call, "c"));
    assertEquals(1, real.bulkhead("direct-waits").available());
  }

  @Test
  void aFailureIsRecordedOnceAndRetriedTheStagedWay() throws Exception {
    ResilientCall call = fourPatterns("direct-retry");
    delegate.script.add(new IOException("once"));
    delegate.script.add(11);

    assertEquals(11, count(call, "a"));

    assertEquals(2, delegate.calls);
    assertEquals(1, SLOT_CALLS.get(), "the retry called the delegate through the slot invoker");
    assertEquals(2, registry.bulkhead("direct-retry").available());
    assertEquals(1, count("call.failed"), "the failure is reported once");
    assertEquals(1, count("call.succeeded"));
  }

  @Test
  void aFailureTheBreakerCountsOpensItAndTheFallbackAnswers() throws Exception {
    ResilientCall call = registry.resolve(count()
        .with(FallbackConfig.builder("Stock.count").on(IOException.class, CircuitOpenException.class))
        .with(CircuitBreakerConfig.builder("direct-fallback").failureThreshold(1).resetTimeout("10s"))
        .fallbackTakes("noStock", Exception.class)
        .fallback(DirectDelegateCallTest::fallBackTo)
        .build());
    delegate.script.add(new IOException("down"));

    assertEquals(-1, count(call, "a"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("direct-fallback").state());
    assertEquals(-1, count(call, "a"), "refused, answered");
    assertEquals(1, delegate.calls);
  }

  @Test
  void anErrorIsThrownAsItselfUncountedAndEverythingComesBack() {
    ResilientCall call = registry.resolve(count()
        .with(RetryConfig.builder("Stock.count").maxAttempts(3).delay("0ms").jitter(Retry.Jitter.NONE))
        .with(CircuitBreakerConfig.builder("direct-error").failureThreshold(1))
        .with(BulkheadConfig.builder("direct-error").maxConcurrent(2))
        .build());
    AssertionError broken = new AssertionError("broken");
    delegate.script.add(broken);

    assertSame(broken, assertThrows(AssertionError.class, () -> count(call, "a")));

    assertEquals(1, delegate.calls, "an Error is not retried");
    assertEquals(2, registry.bulkhead("direct-error").available());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("direct-error").state(), "an Error is not counted");
  }

  @Test
  void anInterruptIsNotSwallowed() {
    ResilientCall call = registry.resolve(count()
        .with(BulkheadConfig.builder("direct-interrupt").maxConcurrent(1))
        .build());
    RuntimeException interrupted = new IllegalStateException("interrupted");
    delegate.script.add(interrupted);
    Thread.currentThread().interrupt();
    try {
      assertSame(interrupted, assertThrows(IllegalStateException.class, () -> count(call, "a")));
      assertTrue(Thread.currentThread().isInterrupted(), "the flag is the caller's");
    } finally {
      Thread.interrupted();
    }
    assertEquals(1, registry.bulkhead("direct-interrupt").available());
  }

  @Test
  void aMeteredCallIsReportedOnceAttemptAndCallTogether() throws Exception {
    RecordedMetrics metrics = new RecordedMetrics();
    registry.bindMetrics(metrics);
    ResilientCall call = registry.resolve(count()
        .with(CircuitBreakerConfig.builder("direct-metered").failureThreshold(5))
        .build());
    long at = call.instant();
    Object held = call.admitNow(at);
    assertTrue(call.admitted(held));
    clock.advance(Duration.ofMillis(3));
    call.succeeded(held, at);

    assertEquals(List.of("Stock.count attemptSucceeded 3000000", "Stock.count succeeded 3000000"),
        metrics.starting("Stock.count "));
    assertEquals(0, SLOT_CALLS.get());
  }

  @Test
  void aMeteredFailureIsReportedAsTheStagedWayReportsIt() throws Exception {
    RecordedMetrics metrics = new RecordedMetrics();
    registry.bindMetrics(metrics);
    ResilientCall call = registry.resolve(count()
        .with(RetryConfig.builder("Stock.count").maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE))
        .build());
    delegate.script.add(new IOException("once"));
    delegate.script.add(5);

    assertEquals(5, count(call, "a"));

    List<String> reported = metrics.starting("Stock.count ");
    assertEquals(1, reported.stream().filter(line -> line.startsWith("Stock.count attemptFailed")).count(), reported.toString());
    assertEquals(1, reported.stream().filter(line -> line.startsWith("Stock.count attemptSucceeded")).count(), reported.toString());
    assertEquals(1, reported.stream().filter(line -> line.startsWith("Stock.count succeeded")).count(), reported.toString());
  }

  @Test
  void aResultPredicateOfTheBreakerOrTheRetrySendsTheCallTheStagedWay() throws Exception {
    ResilientCall judgedByBreaker = registry.resolve(count()
        .with(CircuitBreakerConfig.builder("direct-judged").failureThreshold(1).onResult(result -> Integer.valueOf(0).equals(result)))
        .build());
    ResilientCall judgedByRetry = registry.resolve(CallDefinition.builder("Stock.recount")
        .invokes(DirectDelegateCallTest::delegateTo, 0)
        .with(RetryConfig.builder("Stock.recount").maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE)
            .onResult(result -> Integer.valueOf(0).equals(result)))
        .build());

    assertFalse(judgedByBreaker.admitted(judgedByBreaker.admitNow(judgedByBreaker.instant())));
    assertFalse(judgedByRetry.admitted(judgedByRetry.admitNow(judgedByRetry.instant())));
    delegate.script.add(0);
    assertEquals(0, count(judgedByBreaker, "a"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("direct-judged").state(), "the result was judged");
    delegate.script.add(0);
    delegate.script.add(4);
    assertEquals(4, count(judgedByRetry, "a"), "the result was retried");
    assertEquals(3, SLOT_CALLS.get());
  }

  @Test
  void anAttemptAdmittedBeforeAReconfigurationIsFinishedByThePoliciesThatAdmittedIt() throws Exception {
    ResilientCall call = registry.resolve(count()
        .with(RetryConfig.builder("Stock.count").maxAttempts(1))
        .with(BulkheadConfig.builder("direct-reconfigured").maxConcurrent(2))
        .build());
    long at = call.instant();
    Object held = call.admitNow(at);
    assertTrue(call.admitted(held));

    registry.reconfigure(Map.of("BRACE_RETRY_STOCK_COUNT_MAX_ATTEMPTS", "3"), Map.of());
    IOException down = new IOException("down");

    Object left = call.failed(held, at, down);
    assertSame(down, assertThrows(IOException.class,
        () -> call.staged(left, at, delegate, "a", null, null, null, 0L, 0L)),
        "the retry that admitted it allows one attempt");
    assertEquals(0, SLOT_CALLS.get());
    assertEquals(2, registry.bulkhead("direct-reconfigured").available());

    delegate.script.add(new IOException("again"));
    assertEquals(7, count(call, "b"), "the next call retries as reconfigured");
    assertEquals(1, SLOT_CALLS.get());
  }

  @Test
  void permitsAndBreakerTicketsAllComeBackAfterManyFailures() {
    ResilientCall call = fourPatterns("direct-many");
    for (int i = 0; i < 12; i++) {
      delegate.script.add(new IllegalArgumentException("bad " + i));
    }
    for (int i = 0; i < 4; i++) {
      assertThrows(IllegalArgumentException.class, () -> count(call, "a"));
    }
    assertEquals(2, registry.bulkhead("direct-many").available());
    assertEquals(12, delegate.calls);
  }

  @Test
  void aSuccessAfterTheCircuitClosedAgainCountsForTheNewClosedCircuit() throws Exception {
    ResilientCall call = registry.resolve(count()
        .with(CircuitBreakerConfig.builder("direct-cycle").failureThreshold(2).resetTimeout("10s"))
        .build());
    assertEquals(7, count(call, "a"), "a success of the first closed circuit");
    delegate.script.add(new IOException("one"));
    delegate.script.add(new IOException("two"));
    assertThrows(IOException.class, () -> count(call, "a"));
    assertThrows(IOException.class, () -> count(call, "a"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("direct-cycle").state());
    clock.advance(Duration.ofSeconds(10));
    assertEquals(7, count(call, "a"), "the probe");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("direct-cycle").state());

    // One failure, a success, one failure: the success, admitted by the new closed circuit,
    // starts the count of consecutive failures again, so the circuit stays closed.
    delegate.script.add(new IOException("three"));
    assertThrows(IOException.class, () -> count(call, "a"));
    assertEquals(7, count(call, "a"));
    delegate.script.add(new IOException("four"));
    assertThrows(IOException.class, () -> count(call, "a"));
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("direct-cycle").state());

    // And its failures count for it: a second one in a row opens it.
    delegate.script.add(new IOException("five"));
    assertThrows(IOException.class, () -> count(call, "a"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("direct-cycle").state());
  }

  @Test
  void anAttemptMeteredSinceItsInstantWasReadIsNotAdmittedNowAndGoesTheStagedWay() throws Exception {
    Registry quiet = Registry.builder().timeSource(clock).scheduler(clock.scheduler())
        .environment(Map.of()).systemProperties(Map.of()).build();
    ResilientCall call = quiet.resolve(count()
        .with(BulkheadConfig.builder("direct-late-meter").maxConcurrent(2))
        .build());
    // Neither a limiter nor metrics: the instant is not read.
    long at = call.instant();
    quiet.subscribeForMetrics(event -> {});

    Object held = call.admitNow(at);

    assertFalse(call.admitted(held), "a metered attempt needs the instant it was not given");
    assertEquals(7, (int) call.staged(held, at, delegate, "a", null, null, null, 0L, 0L));
    assertEquals(1, SLOT_CALLS.get(), "the staged way called the delegate");
    assertEquals(2, quiet.bulkhead("direct-late-meter").available());
  }
}
