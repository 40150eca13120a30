package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * {@code @StaleIfError} through {@code Stack} on manual time: what is remembered, what answers,
 * and the single flight's waits, interrupts and cancellations. (Through generated wrappers and
 * every settings layer: the conformance matrix.)
 */
class StaleIfErrorTest {
  private static final long REAL_WAIT_SECONDS = 10;

  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();
  private final List<Event> events = new CopyOnWriteArrayList<>();
  private final AtomicInteger calls = new AtomicInteger();

  StaleIfErrorTest() {
    registry.subscribe(events::add);
  }

  private Stack<String> stale(java.util.function.Consumer<dev.brace.runtime.config.StaleIfErrorConfig.Builder> settings) {
    return Stack.<String>builder("stale.stack").staleIfError(settings).build(registry);
  }

  private String answer(String value) {
    calls.incrementAndGet();
    return value;
  }

  private String down() throws IOException {
    calls.incrementAndGet();
    throw new IOException("down");
  }

  @Test
  void onlyMatchingFailuresAreAnsweredAndErrorsNever() throws Exception {
    Stack<String> stack = stale(s -> s.on(IOException.class).ignore(java.io.FileNotFoundException.class));
    stack.call("k", () -> "remembered");

    assertEquals("remembered", stack.call("k", this::down));
    IllegalStateException other = new IllegalStateException("not on");
    assertSame(other, assertThrows(IllegalStateException.class, () -> stack.call("k", () -> {
      throw other;
    })));
    assertThrows(java.io.FileNotFoundException.class, () -> stack.call("k", () -> {
      throw new java.io.FileNotFoundException("ignored");
    }));
    StackOverflowError error = new StackOverflowError();
    assertSame(error, assertThrows(StackOverflowError.class, () -> stack.call("k", () -> {
      throw error;
    })));
    assertEquals(1, events.stream().filter(e -> e.kind().equals("stale.served")).count());
    assertEquals(0, events.stream().filter(e -> e.kind().equals("stale.missing")).count(), "only a matching failure can miss");
  }

  @Test
  void theLatestResultOfEachKeyIsRememberedNullIncluded() throws Exception {
    Stack<String> stack = stale(s -> { });
    stack.call("a", () -> "first");
    stack.call("a", () -> "second");
    stack.call("b", () -> null);
    assertEquals("second", stack.call("a", this::down));
    assertEquals(null, stack.call("b", this::down), "a remembered null is an answer");
  }

  @Test
  void aStackCalledWithoutAKeyRemembersOneResult() throws Exception {
    Stack<String> stack = stale(s -> { });
    stack.call(() -> "only");
    assertEquals("only", stack.call(this::down));
  }

  @Test
  void anAsyncFailureThatArrivesLaterIsAnsweredFromMemoryToo() throws Exception {
    Stack<String> stack = stale(s -> { });
    assertEquals("remembered", stack.callAsync("k", () -> CompletableFuture.completedFuture(answer("remembered"))).get());
    CompletableFuture<String> dependency = new CompletableFuture<>();

    CompletableFuture<String> result = asyncLeader(stack, dependency);
    assertFalse(result.isDone(), "the dependency has not answered yet");
    dependency.completeExceptionally(new IOException("down, later"));

    assertEquals("remembered", result.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertEquals(1, events.stream().filter(event -> event.kind().equals("stale.served")).count());
  }

  @Test
  void atMostMaxEntriesKeysAreKept() throws Exception {
    Stack<String> stack = stale(s -> s.maxEntries(10));
    for (int key = 0; key < 100; key++) {
      String value = "v" + key;
      stack.call("k" + key, () -> value);
    }
    long answered = 0;
    for (int key = 0; key < 100; key++) {
      try {
        stack.call("k" + key, this::down);
        answered++;
      } catch (IOException missing) {
        // evicted
      }
    }
    assertTrue(answered <= 10, answered + " keys still answered");
    assertTrue(answered > 0, "the most recent keys are kept");
  }

  @Test
  void aResultExpiresAfterMaxAgeOnTheRegistrysClock() throws Exception {
    Stack<String> stack = stale(s -> s.maxAge("1m"));
    stack.call("k", () -> "old");
    clock.advance(Duration.ofSeconds(60));
    assertEquals("old", stack.call("k", this::down), "exactly maxAge old still answers");
    clock.advance(Duration.ofMillis(1));
    assertThrows(IOException.class, () -> stack.call("k", this::down));
    Event missing = events.stream().filter(e -> e.kind().equals("stale.missing")).findFirst().orElseThrow();
    assertEquals("stale.stack", missing.instance());
    assertEquals("java.io.IOException", missing.attributes().get("exception"));
  }

  @Test
  void configurationReachesTheStackByItsName() throws Exception {
    Registry configured = Registry.builder().timeSource(clock)
        .environment(Map.of("BRACE_STALEIFERROR_STALE_STACK_FRESH", "5s")).build();
    Stack<String> stack = Stack.<String>builder("stale.stack").staleIfError(s -> { }).build(configured);
    assertEquals("one", stack.call("k", () -> answer("one")));
    assertEquals("one", stack.call("k", () -> answer("two")), "fresh from the environment");
    assertEquals(1, calls.get());

    Registry off = Registry.builder().timeSource(clock)
        .environment(Map.of("BRACE_STALEIFERROR_STALE_STACK_ENABLED", "false")).build();
    Stack<String> passing = Stack.<String>builder("stale.stack").staleIfError(s -> { }).build(off);
    passing.call("k", () -> "one");
    assertThrows(IOException.class, () -> passing.call("k", this::down), "switched off: nothing is remembered");
  }

  @Test
  void freshLongerThanMaxAgeIsRefused() {
    ConfigurationException refused = assertThrows(ConfigurationException.class,
        () -> stale(s -> s.maxAge("1m").fresh("2m")));
    assertTrue(refused.getMessage().contains("fresh"), refused.getMessage());
  }

  // ---- single flight ----

  /** Starts a sync call on a thread of its own; its result or failure lands in the future. */
  private CompletableFuture<String> inThread(Stack<String> stack, java.util.concurrent.Callable<String> call) {
    CompletableFuture<String> outcome = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        outcome.complete(stack.call("k", call));
      } catch (Throwable failure) {
        outcome.completeExceptionally(failure);
      }
    });
    thread.setDaemon(true);
    thread.start();
    threads.add(thread);
    return outcome;
  }

  private final List<Thread> threads = new CopyOnWriteArrayList<>();

  /** Parks until {@code thread} waits (blocked or parked), so it is past the point under test. */
  private static void awaitWaiting(Thread thread) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(REAL_WAIT_SECONDS);
    while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
      assertTrue(System.nanoTime() < deadline, "the follower never waited");
      LockSupport.parkNanos(1_000_000);
    }
  }

  /** Starts a call on a thread of its own that leads the key's flight and holds it until {@code release}. */
  private CompletableFuture<String> heldLeader(Stack<String> stack, CountDownLatch release,
      java.util.concurrent.Callable<String> then) throws InterruptedException {
    CountDownLatch leaderIn = new CountDownLatch(1);
    CompletableFuture<String> leader = inThread(stack, () -> {
      leaderIn.countDown();
      release.await();
      return then.call();
    });
    assertTrue(leaderIn.await(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    return leader;
  }

  /** An async call that leads the key's flight with the dependency's future {@code dependency}. */
  private CompletableFuture<String> asyncLeader(Stack<String> stack, CompletableFuture<String> dependency) {
    return stack.callAsync("k", () -> {
      calls.incrementAndGet();
      return dependency;
    });
  }

  @Test
  void aFollowerSharesTheLeadersFailureAndAnswersItFromMemory() throws Exception {
    Stack<String> stack = stale(s -> s.fresh("1s"));
    stack.call("k", () -> "remembered");
    clock.advance(Duration.ofSeconds(2));
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> leader = heldLeader(stack, release, () -> down());
    CompletableFuture<String> follower = inThread(stack, this::down);
    awaitWaiting(threads.get(1));
    release.countDown();

    assertEquals("remembered", leader.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertEquals("remembered", follower.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertEquals(1, calls.get(), "the follower never called");
    assertEquals(2, events.stream().filter(e -> e.kind().equals("stale.served")).count(), "each caller was answered from memory");
  }

  @Test
  void anInterruptedFollowerStopsWithItsFlagSetAndTheLeaderGoesOn() throws Exception {
    Stack<String> stack = stale(s -> s.fresh("1s"));
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> leader = heldLeader(stack, release, () -> answer("led"));
    AtomicReference<Boolean> flagAfter = new AtomicReference<>();
    CompletableFuture<String> follower = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        follower.complete(stack.call("k", () -> answer("followed")));
      } catch (Throwable failure) {
        flagAfter.set(Thread.currentThread().isInterrupted());
        follower.completeExceptionally(failure);
      }
    });
    thread.start();
    awaitWaiting(thread);
    thread.interrupt();

    ExecutionException stopped = assertThrows(ExecutionException.class, () -> follower.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertInstanceOf(ResilienceException.class, stopped.getCause());
    assertInstanceOf(InterruptedException.class, stopped.getCause().getCause());
    assertEquals(Boolean.TRUE, flagAfter.get(), "the interrupt flag is set again");
    release.countDown();
    assertEquals("led", leader.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertEquals(1, calls.get());
  }

  @Test
  void anInterruptedFollowerIsNotAnsweredByTheFallback() throws Exception {
    Stack<String> stack = Stack.<String>builder("stale.stack").staleIfError(s -> s.fresh("1s"))
        .fallback(cause -> "fallback").build(registry);
    CountDownLatch release = new CountDownLatch(1);
    heldLeader(stack, release, () -> "led");
    CompletableFuture<String> follower = inThread(stack, () -> "followed");
    awaitWaiting(threads.get(1));
    threads.get(1).interrupt();
    ExecutionException stopped = assertThrows(ExecutionException.class, () -> follower.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertInstanceOf(ResilienceException.class, stopped.getCause());
    release.countDown();
  }

  @Test
  void anAsyncFollowerDependsOnTheLeaderAndItsCancellationLeavesTheLeaderAlone() throws Exception {
    Stack<String> stack = stale(s -> s.fresh("1s"));
    CompletableFuture<String> dependency = new CompletableFuture<>();
    CompletableFuture<String> leader = asyncLeader(stack, dependency);
    CompletableFuture<String> follower = stack.callAsync("k", () -> CompletableFuture.completedFuture(answer("own")));
    CompletableFuture<String> cancelled = stack.callAsync("k", () -> CompletableFuture.completedFuture(answer("own")));
    assertFalse(follower.isDone());
    cancelled.cancel(true);

    dependency.complete("shared");
    assertEquals("shared", leader.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertEquals("shared", follower.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertTrue(cancelled.isCancelled());
    assertEquals(1, calls.get());
    assertEquals("shared", stack.callAsync("k", () -> CompletableFuture.completedFuture(answer("fresh?"))).get(),
        "fresh now: answered without a call");
    assertEquals(1, calls.get());
  }

  @Test
  void whenTheLeadersCallerGivesUpAFollowerCallsItself() throws Exception {
    Stack<String> stack = stale(s -> s.fresh("1s"));
    CompletableFuture<String> never = new CompletableFuture<>();
    CompletableFuture<String> leader = asyncLeader(stack, never);
    CompletableFuture<String> follower = stack.callAsync("k", () -> CompletableFuture.completedFuture(answer("own")));
    assertFalse(follower.isDone());

    leader.cancel(true);

    assertEquals("own", follower.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS), "the leader abandoned the flight");
    assertTrue(never.isCancelled(), "the leader's own call was stopped");
    assertEquals(2, calls.get());
    assertThrows(CancellationException.class, leader::join);
  }

  @Test
  void aSyncFollowerOfALeaderThatDiedOfAnErrorCallsItself() throws Exception {
    Stack<String> stack = stale(s -> s.fresh("1s"));
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> leader = heldLeader(stack, release, () -> {
      throw new AssertionError("the leader's own");
    });
    CompletableFuture<String> follower = inThread(stack, () -> answer("own"));
    awaitWaiting(threads.get(1));
    release.countDown();

    assertInstanceOf(AssertionError.class,
        assertThrows(ExecutionException.class, () -> leader.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS)).getCause());
    assertEquals("own", follower.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS), "an Error is not shared");
  }

  @Test
  void aSyncFollowerReturnsTheLeadersResultWithoutCallingTheDependency() throws Exception {
    Stack<String> stack = stale(s -> s.fresh("1s"));
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> leader = heldLeader(stack, release, () -> answer("the leader's"));
    CompletableFuture<String> follower = inThread(stack, () -> answer("own"));
    awaitWaiting(threads.get(1));
    release.countDown();

    assertEquals("the leader's", leader.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertEquals("the leader's", follower.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertEquals(1, calls.get(), "only the leader called");
  }

  @Test
  void withoutFreshConcurrentCallersOfOneKeyEachCallTheDependency() throws Exception {
    Stack<String> stack = stale(s -> { });
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> first = heldLeader(stack, release, () -> answer("first"));

    CompletableFuture<String> second = inThread(stack, () -> answer("second"));

    assertEquals("second", second.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS), "the second did not wait for the first");
    release.countDown();
    assertEquals("first", first.get(REAL_WAIT_SECONDS, TimeUnit.SECONDS));
    assertEquals(2, calls.get());
  }
}
