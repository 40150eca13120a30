package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.ResilienceException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.CallerInterrupted;
import dev.brace.runtime.internal.policy.HedgePolicy;
import dev.brace.runtime.spi.driver.DelegateCall;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.LambdaCalls.Attempt;
import dev.brace.runtime.support.LambdaCalls;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hedged synchronous call on manual time. Attempts run on worker threads and block on gates the
 * test opens; advancing the manual clock fires the hedge's delay, and the test waits in real time
 * (bounded) only for a worker to reach the delegate.
 */
class SyncHedgeTest {
  private static final String CALL = "C.m";
  /**
   * How long a test waits in real time for a thread to get somewhere before it counts as hung. Only
   * a hang reaches it; it is long because on a loaded machine a worker's first event alone (SLF4J
   * starting up) has been seen to take seconds.
   */
  private static final Duration REAL_BOUND = Duration.ofSeconds(60);

  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();
  private final List<Event> events = new CopyOnWriteArrayList<>();
  private final Gates gates = new Gates();

  SyncHedgeTest() {
    registry.subscribe(events::add);
  }

  private static HedgeConfig.Builder hedge() {
    return HedgeConfig.builder(CALL).delay("100ms").maxHedges(2).on(IOException.class);
  }

  private ResilientCall guard(CallDefinition.Builder definition) {
    return registry.resolve(definition.build());
  }

  /** Calls on a thread of its own, as the generated method does ({@code hedged}) or as a Stack does ({@code call}). */
  private static CompletableFuture<String> start(ResilientCall guard, Attempt<String> attempt, boolean generated) {
    return start(() -> generated ? LambdaCalls.call(guard, attempt, null) : LambdaCalls.call(guard, attempt, null));
  }

  /** Makes {@code call} on a thread of its own. */
  private static CompletableFuture<String> start(Caller call) {
    CompletableFuture<String> outcome = new CompletableFuture<>();
    Thread caller = new Thread(() -> {
      try {
        outcome.complete(call.call());
      } catch (Throwable failure) {
        outcome.completeExceptionally(failure);
      }
    }, "test-caller");
    caller.setDaemon(true);
    caller.start();
    return outcome;
  }

  /** A synchronous call as a test makes it, which may throw anything. */
  private interface Caller {
    String call() throws Throwable;
  }

  /** Starts a call and lets the hedge's delay pass: two attempts then wait at their gates. */
  private CompletableFuture<String> raceOfTwo(ResilientCall guard, boolean generated) {
    CompletableFuture<String> call = start(guard, gates, generated);
    gates.await(1);
    clock.advance(Duration.ofMillis(100));
    gates.await(2);
    return call;
  }

  private static Throwable failureOf(CompletableFuture<String> call) throws Exception {
    try {
      call.get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException ended) {
      return ended.getCause();
    }
    throw new AssertionError("the call returned instead of failing");
  }

  private static String resultOf(CompletableFuture<String> call) throws Exception {
    return call.get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
  }

  private List<Object> attemptsOf(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind))
        .map(event -> event.attributes().get("attempt")).collect(Collectors.toList());
  }

  @Test
  void anAnswerWithinTheDelayStartsNoHedge() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge()));
    CompletableFuture<String> call = start(guard, gates, true);
    gates.await(1);
    clock.advance(Duration.ofMillis(99));
    gates.open(0, "first");

    assertEquals("first", resultOf(call));
    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, gates.started());
    assertTrue(attemptsOf("hedge.started").isEmpty());
  }

  @Test
  void theHedgeThatAnswersFirstWinsAndTheLoserIsInterruptedAndHasEndedWhenTheCallReturns() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge()));
    CompletableFuture<String> call = raceOfTwo(guard, true);
    gates.open(1, "second");

    assertEquals("second", resultOf(call));
    assertEquals(0, gates.running.get(), "the loser ended before the call returned");
    assertEquals(1, gates.interrupted.get(), "the loser was interrupted");
    assertEquals(List.of(2), attemptsOf("hedge.started"));
    assertEquals(List.of(2), attemptsOf("hedge.won"));
    assertTrue(gates.threads.stream().noneMatch(thread -> thread.getName().equals("test-caller")),
        "every attempt ran on a worker thread: " + gates.threads);
    assertNotSame(gates.threads.get(0), gates.threads.get(1));
  }

  @Test
  void aStackCallTakesTheSameSteps() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge()));
    CompletableFuture<String> call = raceOfTwo(guard, false);
    gates.open(0, "first");

    assertEquals("first", resultOf(call));
    assertEquals(0, gates.running.get());
    assertEquals(List.of(1), attemptsOf("hedge.won"), "the original attempt may still win");
  }

  @Test
  void aFailureInOnStartsTheNextHedgeAtOnceAndWhenAllFailTheLastCarriesTheOthers() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge()));
    CompletableFuture<String> call = start(guard, gates, true);
    IOException[] failures = {new IOException("1"), new IOException("2"), new IOException("3")};
    for (int i = 0; i < 3; i++) {
      gates.await(i + 1);
      gates.fail(i, failures[i]);
    }

    assertSame(failures[2], failureOf(call), "a checked exception arrives as itself");
    assertArrayEquals(new Throwable[] {failures[0], failures[1]}, failures[2].getSuppressed());
    assertEquals(3, gates.started());
  }

  @Test
  void aFailureOutsideOnDecidesAndStopsTheOthers() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge()));
    CompletableFuture<String> call = raceOfTwo(guard, true);
    IllegalStateException broken = new IllegalStateException("second");
    gates.fail(1, broken);

    assertSame(broken, failureOf(call));
    assertEquals(0, gates.running.get());
    assertEquals(1, gates.interrupted.get());
  }

  @Test
  void aCallerInterruptedWhileWaitingStopsEveryAttemptAndKeepsItsFlag() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge()));
    CompletableFuture<Throwable> thrown = new CompletableFuture<>();
    CompletableFuture<Boolean> flagKept = new CompletableFuture<>();
    CompletableFuture<Integer> runningWhenItReturned = new CompletableFuture<>();
    Thread caller = new Thread(() -> {
      try {
        LambdaCalls.call(guard, gates, null);
        thrown.complete(null);
      } catch (Throwable failure) {
        runningWhenItReturned.complete(gates.running.get());
        flagKept.complete(Thread.currentThread().isInterrupted());
        thrown.complete(failure);
      }
    }, "interrupted-caller");
    caller.setDaemon(true);
    caller.start();
    gates.await(1);
    clock.advance(Duration.ofMillis(100));
    gates.await(2);

    caller.interrupt();

    Throwable failure = thrown.get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    assertInstanceOf(CallerInterrupted.class, failure);
    assertInstanceOf(ResilienceException.class, failure, "unchecked, so any method may throw it");
    assertInstanceOf(InterruptedException.class, failure.getCause());
    assertTrue(flagKept.get(), "the caller's interrupt flag is set again");
    assertEquals(0, runningWhenItReturned.get(), "no attempt outlives the call");
    assertEquals(2, gates.interrupted.get(), "both attempts were stopped");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(2, gates.started(), "no hedge starts after the caller gave up");
  }

  @Test
  void noInterruptIsLeftOnAWorkerThreadForItsNextAttempt() throws Exception {
    // Only a pool's threads carry anything from one attempt to the next: a virtual thread (JDK 21
    // and later) serves one attempt and ends. So this drives the platform pool JDK 17 to 20 get, on
    // every JDK. Sixteen threads at most for forty attempts: threads are reused, and a round never
    // finds the pool full while the previous round's threads make their way back to it.
    ThreadPoolExecutor pool = new ThreadPoolExecutor(0, 16, 60, TimeUnit.SECONDS, new SynchronousQueue<>());
    try {
      EventBus bus = new EventBus(Clock.systemUTC());
      HedgePolicy policy = new HedgePolicy(hedge().maxHedges(1).build(), CALL, bus, null, false);
      CallPolicies policies = hedged(bus, policy, pool);
      for (int round = 0; round < 20; round++) {
        int before = gates.started();
        CompletableFuture<String> call = start(() -> SyncHedgeGroup.run(policies, CallKeys.NONE, gates));
        gates.await(before + 1);
        clock.advance(Duration.ofMillis(100));
        gates.await(before + 2);
        gates.open(before + 1, "hedge " + round);
        assertEquals("hedge " + round, resultOf(call));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(20, gates.interrupted.get(), "every loser was interrupted");
    assertEquals(0, gates.interruptedAtStart.get(), "yet no attempt began with an interrupt already set");
    long distinctThreads = gates.threads.stream().distinct().count();
    assertTrue(distinctThreads < gates.threads.size(), "the pool reused its threads, which is what could leak: " + distinctThreads);
  }

  @Test
  void theBulkheadPermitsOfEveryAttemptAreReleased() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge()).with(BulkheadConfig.builder("bh").maxConcurrent(3)));
    CompletableFuture<String> call = raceOfTwo(guard, true);
    clock.advance(Duration.ofMillis(100));
    gates.await(3);
    assertEquals(3, registry.bulkhead("bh").inFlight(), "one permit per attempt");

    gates.open(2, "third");
    assertEquals("third", resultOf(call));
    assertEquals(0, registry.bulkhead("bh").inFlight());
  }

  @Test
  void aStoppedLosersFailureIsNotRecordedByTheBreaker() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge())
        .with(CircuitBreakerConfig.builder("cb").failureThreshold(1).resetTimeout("1m")));
    CompletableFuture<String> call = raceOfTwo(guard, true);
    gates.open(1, "second");

    assertEquals("second", resultOf(call));
    assertEquals(1, gates.interrupted.get());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("cb").state(),
        "the loser's InterruptedException is the stop's doing, not the dependency's");
  }

  @Test
  void withNoWorkerThreadFreeTheFirstAttemptRunsOnTheCallersThreadAndNoHedgeStarts() throws Throwable {
    EventBus bus = new EventBus(Clock.systemUTC());
    List<Event> seen = new CopyOnWriteArrayList<>();
    bus.subscribe(seen::add);
    HedgePolicy policy = new HedgePolicy(hedge().delay("0ms").build(), CALL, bus, null, false);
    CallPolicies policies = hedged(bus, policy, task -> {
          throw new RejectedExecutionException("full");
        });
    Thread caller = Thread.currentThread();
    AtomicInteger calls = new AtomicInteger();

    String result = SyncHedgeGroup.run(policies, CallKeys.NONE, () -> {
      calls.incrementAndGet();
      return Thread.currentThread() == caller ? "on the caller" : "elsewhere";
    });

    assertEquals("on the caller", result);
    assertEquals(1, calls.get(), "hedges that find no thread are not started");
    assertFalse(Thread.currentThread().isInterrupted());
  }

  @Test
  void hedgesThatFindNoThreadAreNotStartedAndTheFirstAttemptsFailureEndsTheCall() throws Exception {
    EventBus bus = new EventBus(Clock.systemUTC());
    HedgePolicy policy = new HedgePolicy(hedge().build(), CALL, bus, null, false);
    ExecutorService one = Executors.newSingleThreadExecutor();
    AtomicInteger offered = new AtomicInteger();
    try {
      // The first attempt gets the pool's only thread; every hedge after it is refused one.
      CallPolicies policies = hedged(bus, policy, task -> {
            if (offered.incrementAndGet() > 1) {
              throw new RejectedExecutionException("full");
            }
            one.execute(task);
          });
      IOException down = new IOException("down");
      CountDownLatch failNow = new CountDownLatch(1);
      CountDownLatch running = new CountDownLatch(1);
      CompletableFuture<String> call = start(() -> SyncHedgeGroup.run(policies, CallKeys.NONE, () -> {
        running.countDown();
        failNow.await();
        throw down;
      }));
      assertTrue(running.await(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS));

      clock.advance(Duration.ofMillis(100));
      clock.advance(Duration.ofMillis(100));
      assertEquals(3, offered.get(), "both hedges were due and asked for a thread");
      assertFalse(call.isDone(), "the first attempt is still running");
      failNow.countDown();

      assertSame(down, failureOf(call), "no hedge could start: the first attempt's failure is the call's");
    } finally {
      one.shutdownNow();
    }
  }

  @Test
  void whenNoThreadCanBeMadeTheCallEndsWithThatErrorInsteadOfWaitingForever() {
    EventBus bus = new EventBus(Clock.systemUTC());
    HedgePolicy policy = new HedgePolicy(hedge().build(), CALL, bus, null, false);
    OutOfMemoryError noThread = new OutOfMemoryError("unable to create native thread");
    CallPolicies policies = hedged(bus, policy, task -> {
          throw noThread;
        });

    Throwable thrown = org.junit.jupiter.api.Assertions.assertThrows(OutOfMemoryError.class,
        () -> SyncHedgeGroup.run(policies, CallKeys.NONE, () -> "never called"));

    assertSame(noThread, thrown);
  }

  @Test
  void aStaleAnswerWaitsForTheWholeHedgeAndAnswersOnlyWhenEveryAttemptFailed() throws Exception {
    // StaleIfError sits outside Retry and Hedge: the remembered result answers the hedged call as
    // a whole, after its last hedge failed, never one attempt of it.
    ResilientCall guard = guard(LambdaCalls.builder(CALL)
        .with(StaleIfErrorConfig.builder(CALL).maxAge("1h"))
        .with(hedge()));
    CompletableFuture<String> remembered = start(guard, gates, false);
    gates.await(1);
    gates.open(0, "remembered");
    assertEquals("remembered", resultOf(remembered));

    CompletableFuture<String> call = start(guard, gates, false);
    for (int attempt = 1; attempt <= 3; attempt++) {
      gates.await(attempt + 1);
      assertFalse(call.isDone(), "no stale answer while a hedge may still start");
      gates.fail(attempt, new IOException("down " + attempt));
    }

    assertEquals("remembered", resultOf(call));
    assertEquals(4, gates.started(), "one attempt, then the original and both hedges of the second call");
    assertEquals(List.of(2, 3), attemptsOf("hedge.started"));
    assertEquals(1, events.stream().filter(event -> event.kind().equals("stale.served")).count());
  }

  @Test
  void attemptsOnWorkerThreadsSeeTheCallersContextAndLeaveNothingOnTheWorkers() throws Exception {
    // Two long-lived worker threads, one per attempt, each holding a context of its own: after the
    // call each must hold exactly that again, not the caller's.
    ExecutorService first = Executors.newSingleThreadExecutor();
    ExecutorService second = Executors.newSingleThreadExecutor();
    try {
      for (ExecutorService worker : List.of(first, second)) {
        worker.submit(() -> MDC.put("worker", "own")).get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
      }
      AtomicInteger handedOut = new AtomicInteger();
      EventBus bus = new EventBus(Clock.systemUTC());
      HedgePolicy policy = new HedgePolicy(hedge().maxHedges(1).build(), CALL, bus, null, false);
      CallPolicies policies = hedged(bus, policy, task -> (handedOut.getAndIncrement() == 0 ? first : second).execute(task));
      List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
      Attempt<String> attempt = () -> {
        seen.add(MDC.getCopyOfContextMap());
        return gates.call();
      };

      CompletableFuture<String> call = start(() -> {
        MDC.put("request", "r-42");
        return SyncHedgeGroup.run(policies, CallKeys.NONE, attempt::call);
      });
      gates.await(1);
      clock.advance(Duration.ofMillis(100));
      gates.await(2);
      gates.open(1, "second");

      assertEquals("second", resultOf(call));
      assertEquals(List.of(Map.of("request", "r-42"), Map.of("request", "r-42")), seen,
          "each attempt saw the caller's MDC, and only it");
      for (ExecutorService worker : List.of(first, second)) {
        assertEquals(Map.of("worker", "own"),
            worker.submit(MDC::getCopyOfContextMap).get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS),
            "the worker holds its own context again");
      }
    } finally {
      first.shutdownNow();
      second.shutdownNow();
    }
  }

  @Test
  void withADelayOfZeroEveryHedgeStartsAtOnceAndNoMore() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge().delay("0ms")));
    CompletableFuture<String> call = start(guard, gates, true);
    gates.await(3);
    gates.open(2, "third");

    assertEquals("third", resultOf(call));
    assertEquals(3, gates.started(), "the original and both hedges, without any time passing");
    assertEquals(java.util.Set.of(2, 3), java.util.Set.copyOf(attemptsOf("hedge.started")),
        "both hedges started, on threads of their own and so in either order");
  }

  @Test
  void aFirstAttemptThatDecidesAloneReportsNoHedgeWin() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge()));
    CompletableFuture<String> call = start(guard, gates, true);
    gates.await(1);
    IllegalStateException outsideOn = new IllegalStateException("bad request");
    gates.fail(0, outsideOn);

    assertSame(outsideOn, failureOf(call));
    assertEquals(List.of(), attemptsOf("hedge.won"), "no hedge started, so none won");
  }

  @Test
  void aHedgeFailingOutsideOnDecidesCarryingTheEarlierFailureAndTheBreakerRecordsIt() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge().maxHedges(1))
        .with(CircuitBreakerConfig.builder("cb").failureThreshold(1).resetTimeout("1m").on(IllegalStateException.class)));
    CompletableFuture<String> call = start(guard, gates, true);
    IOException first = new IOException("down");
    IllegalStateException second = new IllegalStateException("bad request");
    failInTurn(first, second);

    assertSame(second, failureOf(call));
    assertArrayEquals(new Throwable[] {first}, second.getSuppressed(), "the hedge's own failure carries the one before");
    assertEquals(List.of(2), attemptsOf("hedge.won"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("cb").state(), "the hedge's failure counts for the breaker");
  }

  @Test
  void aHedgeTheBulkheadRefusesIsNotStartedAndTheCallEndsWithTheDependencysFailure() throws Exception {
    ResilientCall guard = guard(LambdaCalls.builder(CALL).with(hedge().maxHedges(1))
        .with(BulkheadConfig.builder("bh").maxConcurrent(1)));
    CompletableFuture<String> call = start(guard, gates, true);
    gates.await(1);
    clock.advance(Duration.ofMillis(100));
    awaitEvent("bulkhead.rejected");
    IOException down = new IOException("down");
    gates.fail(0, down);

    assertSame(down, failureOf(call), "a failure of the dependency outranks the hedge's refusal");
    assertEquals(1, down.getSuppressed().length);
    assertInstanceOf(ResilienceException.class, down.getSuppressed()[0]);
    assertEquals(1, gates.started());
    assertEquals(List.of(), attemptsOf("hedge.started"), "a refused hedge did not start");
    assertEquals(0, registry.bulkhead("bh").inFlight());
  }

  @Test
  void aResultTheBreakerJudgesByThrowingFailsThatAttemptAndTheHedgeAnswersIt() throws Exception {
    IllegalStateException unjudgeable = new IllegalStateException("cannot judge");
    java.util.function.Predicate<Object> judge = result -> {
      if (result.equals("garbled")) {
        throw unjudgeable;
      }
      return false;
    };
    ResilientCall guard = guard(LambdaCalls.builder(CALL)
        .with(HedgeConfig.builder(CALL).delay("100ms").maxHedges(1).on(IllegalStateException.class))
        .with(CircuitBreakerConfig.builder("cb").onResult(judge)));
    CompletableFuture<String> call = start(guard, gates, true);
    gates.await(1);
    gates.open(0, "garbled");
    gates.await(2);
    gates.open(1, "clear");

    assertEquals("clear", resultOf(call), "the attempt whose result could not be judged does not answer");
    assertEquals(List.of(2), attemptsOf("hedge.won"));
  }

  @Test
  void eachCallDepositsIntoTheBudgetAndTheCallEndsOnceItRunsOutWithNothingPending() throws Exception {
    Registry budgeted = Registry.builder().timeSource(clock)
        .retryBudget("hedges", budget -> budget.percentCanRetry(1).minRetriesPerSecond(0)).build();
    budgeted.subscribe(events::add);
    ResilientCall guard = budgeted.resolve(LambdaCalls.builder(CALL).with(hedge().budget("hedges")).build());
    CompletableFuture<String> call = start(guard, gates, true);
    IOException first = new IOException("down 1");
    IOException second = new IOException("down 2");
    failInTurn(first, second);

    assertSame(second, failureOf(call), "the call's own deposit paid for one hedge, and no more");
    assertArrayEquals(new Throwable[] {first}, second.getSuppressed());
    assertEquals(2, gates.started());
    assertEquals(List.of(2), attemptsOf("hedge.started"));
    assertEquals(List.of(3), attemptsOf("hedge.budget_exhausted"));
  }

  @Test
  void theNextHedgesDelayCountsFromTheHedgeAFailureStartedEarly() throws Exception {
    List<CompletableFuture<Boolean>> workers = new CopyOnWriteArrayList<>();
    CallPolicies policies = policiesWith(hedge(), threadPerTask(workers));
    CompletableFuture<String> call = start(() -> SyncHedgeGroup.run(policies, CallKeys.NONE, gates));
    gates.await(1);
    clock.advance(Duration.ofMillis(50));
    gates.fail(0, new IOException("down"));
    gates.await(2);

    clock.advance(Duration.ofMillis(50));
    assertEquals(2, workers.size(), "100ms after the original, but only 50ms after the hedge its failure started");
    clock.advance(Duration.ofMillis(50));
    assertEquals(3, workers.size());
    gates.await(3);
    gates.open(2, "third");
    assertEquals("third", resultOf(call));
  }

  @Test
  void aLoserThatKeepsItsInterruptHandsItsThreadBackWithoutIt() throws Exception {
    List<CompletableFuture<Boolean>> workers = new CopyOnWriteArrayList<>();
    CallPolicies policies = policiesWith(hedge().maxHedges(1), threadPerTask(workers));
    AtomicInteger calls = new AtomicInteger();
    Attempt<String> attempt = () -> {
      if (calls.incrementAndGet() > 1) {
        return "second";
      }
      // Waits for the stop without clearing its interrupt, as a delegate polling the flag does.
      long deadline = System.nanoTime() + REAL_BOUND.toNanos();
      while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline) {
        LockSupport.parkNanos(1_000_000);
      }
      return "first, too late";
    };

    CompletableFuture<String> call = start(() -> SyncHedgeGroup.run(policies, CallKeys.NONE, attempt::call));
    while (calls.get() < 1) {
      LockSupport.parkNanos(1_000_000);
    }
    clock.advance(Duration.ofMillis(100));

    assertEquals("second", resultOf(call));
    assertEquals(2, workers.size());
    assertFalse(workers.get(0).get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS),
        "the stop's interrupt does not outlive the attempt on its thread");
    assertFalse(workers.get(1).get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS));
  }

  @Test
  void aContextLibraryFailingToInstallTheCallersContextFailsTheAttemptInsteadOfHangingTheCall() throws Exception {
    IllegalStateException cannotInstall = new IllegalStateException("tenant store unavailable");
    ThreadLocal<String> tenant = new ThreadLocal<>();
    String key = "brace-test-hedge-tenant";
    io.micrometer.context.ContextRegistry.getInstance().registerThreadLocalAccessor(key, tenant::get, value -> {
      if (Thread.currentThread().getName().equals("test-worker")) {
        throw cannotInstall;
      }
      tenant.set(value);
    }, tenant::remove);
    try {
      List<CompletableFuture<Boolean>> workers = new CopyOnWriteArrayList<>();
      CallPolicies policies = policiesWith(hedge(), threadPerTask(workers));
      CompletableFuture<String> call = start(() -> {
        tenant.set("acme");
        return SyncHedgeGroup.run(policies, CallKeys.NONE, gates);
      });

      assertSame(cannotInstall, failureOf(call), "the attempt failed with what the library threw, and that decided");
      assertEquals(0, gates.started(), "the delegate never ran without the caller's context");
      assertEquals(1, workers.size());
    } finally {
      io.micrometer.context.ContextRegistry.getInstance().removeThreadLocalAccessor(key);
    }
  }

  @Test
  void anInterruptTheCallerHadBeforeTheCallSurvivesTheStopOfTheAttemptOnItsThread() throws Exception {
    // No worker is free for the original, so it runs on the caller's thread; the hedge finds one.
    AtomicInteger handedOut = new AtomicInteger();
    List<CompletableFuture<Boolean>> workers = new CopyOnWriteArrayList<>();
    java.util.concurrent.Executor hedgesOnly = threadPerTask(workers);
    CallPolicies policies = policiesWith(hedge().maxHedges(1), task -> {
      if (handedOut.getAndIncrement() == 0) {
        throw new RejectedExecutionException("full");
      }
      hedgesOnly.execute(task);
    });
    CompletableFuture<String> original = new CompletableFuture<>();
    AtomicInteger calls = new AtomicInteger();
    Attempt<String> attempt = () -> calls.incrementAndGet() == 1 ? original.join() : "second";

    CompletableFuture<Boolean> interruptKept = new CompletableFuture<>();
    CompletableFuture<String> call = start(() -> {
      Thread.currentThread().interrupt();
      try {
        return SyncHedgeGroup.run(policies, CallKeys.NONE, attempt::call);
      } finally {
        interruptKept.complete(Thread.interrupted());
      }
    });
    while (calls.get() < 1) {
      LockSupport.parkNanos(1_000_000);
    }
    clock.advance(Duration.ofMillis(100));
    awaitEvent("hedge.won");
    original.complete("first, after the stop");

    assertEquals("second", resultOf(call));
    assertTrue(interruptKept.get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS),
        "the stop's interrupt is cleared, the caller's own is put back");
  }

  /** A hedged call's steps over {@code hedge}, its attempts handed to {@code workers}, its events into {@link #events}. */
  private CallPolicies policiesWith(HedgeConfig.Builder hedge, java.util.concurrent.Executor workers) {
    EventBus bus = new EventBus(Clock.systemUTC());
    bus.subscribe(events::add);
    HedgePolicy policy = new HedgePolicy(hedge.build(), CALL, bus, null, false);
    return hedged(bus, policy, workers);
  }

  /**
   * Runs each task on a new thread, counted in {@code handedOut} when handed over; each entry
   * completes, once its task has returned, with whether the thread was left interrupted.
   */
  static java.util.concurrent.Executor threadPerTask(List<CompletableFuture<Boolean>> handedOut) {
    return task -> {
      CompletableFuture<Boolean> interruptLeft = new CompletableFuture<>();
      handedOut.add(interruptLeft);
      Thread worker = new Thread(() -> {
        task.run();
        interruptLeft.complete(Thread.currentThread().isInterrupted());
      }, "test-worker");
      worker.setDaemon(true);
      worker.start();
    };
  }

  /** Fails the attempts in turn, each once it has reached the delegate: {@code failures[i]} is attempt i + 1's. */
  private void failInTurn(Exception... failures) {
    for (int index = 0; index < failures.length; index++) {
      gates.await(index + 1);
      gates.fail(index, failures[index]);
    }
  }

  /** Waits in real time until an event of {@code kind} has been emitted. */
  private void awaitEvent(String kind) {
    long deadline = System.nanoTime() + REAL_BOUND.toNanos();
    while (events.stream().noneMatch(event -> event.kind().equals(kind))) {
      if (System.nanoTime() > deadline) {
        org.junit.jupiter.api.Assertions.fail("no " + kind + " event");
      }
      LockSupport.parkNanos(1_000_000);
    }
  }

  /**
   * The delegate: each invocation blocks on a gate of its own until the test opens or fails it,
   * answering an interrupt with the {@link InterruptedException}.
   */
  private static final class Gates implements Attempt<String>, dev.brace.runtime.spi.driver.DelegateCall {
    final List<CompletableFuture<String>> gates = new CopyOnWriteArrayList<>();
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger interrupted = new AtomicInteger();
    final AtomicInteger interruptedAtStart = new AtomicInteger();

    @Override
    public String call() throws Exception {
      if (Thread.currentThread().isInterrupted()) {
        interruptedAtStart.incrementAndGet();
      }
      CompletableFuture<String> gate = new CompletableFuture<>();
      running.incrementAndGet();
      try {
        threads.add(Thread.currentThread());
        gates.add(gate);
        return gate.get(REAL_BOUND.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException stopped) {
        interrupted.incrementAndGet();
        throw stopped;
      } catch (ExecutionException failed) {
        throw (Exception) failed.getCause();
      } finally {
        running.decrementAndGet();
      }
    }

    int started() {
      return gates.size();
    }

    void open(int index, String value) {
      gates.get(index).complete(value);
    }

    void fail(int index, Exception failure) {
      gates.get(index).completeExceptionally(failure);
    }

    /** Waits in real time until {@code count} invocations have reached their gate. */
    void await(int count) {
      long deadline = System.nanoTime() + REAL_BOUND.toNanos();
      while (gates.size() < count) {
        if (System.nanoTime() > deadline) {
          org.junit.jupiter.api.Assertions.fail("the delegate was invoked " + gates.size() + " times, expected " + count);
        }
        LockSupport.parkNanos(1_000_000);
      }
    }
  }

  private CallPolicies hedged(EventBus bus, HedgePolicy policy, java.util.concurrent.Executor workers) {
    return CallPolicies.builder(LambdaCalls.builder(CALL).build(), clock, bus, clock::scheduler).hedge(policy, workers).build();
  }
}
