package dev.brace.it.matrix;

import dev.brace.runtime.Deadline;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RetryAfterHint;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.flow.FlowKt;
import kotlinx.coroutines.future.FutureKt;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The dependency behind every form: a queue of steps, one per invocation (then {@link Step#OK}),
 * counting invocations and remembering what the fallbacks received. Sync, async, reactive and
 * coroutine invocations of one step fail or succeed the same way, so every form can be held to the
 * same assertions.
 */
final class Script implements AutoCloseable {
  /**
   * How long a held or blocked invocation waits at most for {@link #close()}: only so that no
   * thread outlives a test that never closed its script. Every cell closes its script, and judges
   * a hang by its own limit, which is shorter.
   */
  static final Duration LEAK_BACKSTOP = Cell.REAL_LIMIT.multipliedBy(2);

  /** What one invocation does. */
  enum Step {
    /** Returns {@code input + n}, n being the invocation's number from 1. */
    OK,
    /** Returns the empty string, which {@link IsEmpty} asks to retry. */
    EMPTY,
    /** Fails with {@code IOException("io" + n)}. */
    IO,
    /** Fails with {@code IllegalStateException("ise" + n)}. */
    ISE,
    /** Fails with {@code ExecutionException(IOException("wrapped" + n))}: a wrapper to look through. */
    WRAPPED_IO,
    /** Fails with {@link Throttled}, an IOException hinting a retry after {@link Throttled#HINT}. */
    THROTTLED,
    /** Fails with {@code ConnectException("connect" + n)}: a request that never reached the dependency. */
    CONNECT,
    /** Fails with {@link DependencyError}. */
    ERROR,
    /** Sync: sleeps an hour of manual time, answering an interrupt. Async: never completes. */
    HANG,
    /** Sync: blocks in real time ignoring interrupts (a classic socket read). Async: never completes. */
    BLOCK,
    /** Holds until {@link #releaseHeld()} (or {@link #close()}), however long that takes, then returns as {@link #OK}. */
    HOLD,
    /** Takes {@link #SLOW_TIME} of manual time (sync: sleeps it; async: completes after it), then returns as {@link #OK}. */
    SLOW
  }

  /** How long a {@link Step#SLOW} invocation takes. */
  static final Duration SLOW_TIME = Duration.ofSeconds(2);

  /** An IOException that carries a Retry-After, as an HTTP 503 mapped by a client would. */
  static final class Throttled extends IOException implements RetryAfterHint {
    static final Duration HINT = Duration.ofSeconds(3);
    private static final long serialVersionUID = 1L;

    Throttled(String message) {
      super(message);
    }

    @Override
    public Optional<Duration> retryAfter() {
      return Optional.of(HINT);
    }
  }

  /** An Error from the dependency: must pass through every pattern untouched. */
  static final class DependencyError extends Error {
    private static final long serialVersionUID = 1L;

    DependencyError(String message) {
      super(message);
    }
  }

  /** Retries (or counts as failed) an empty result. */
  static final class IsEmpty implements java.util.function.Predicate<String> {
    @Override
    public boolean test(String value) {
      return value.isEmpty();
    }
  }

  final AtomicInteger invocations = new AtomicInteger();
  /** The exception each fallback invocation received, in order. */
  final List<Throwable> fallbackCauses = new CopyOnWriteArrayList<>();
  /** The futures handed out by async HANG and BLOCK steps, to check they were cancelled. */
  final List<CompletableFuture<String>> abandoned = new CopyOnWriteArrayList<>();
  /** Interrupts a BLOCK step saw (and ignored). */
  final AtomicInteger interruptsIgnored = new AtomicInteger();
  /** Every DependencyError thrown, to check the very same one arrives. */
  final List<DependencyError> errors = new CopyOnWriteArrayList<>();
  /** The caller's context each invocation saw ({@link ContextFollowsTheCall#seen()}), in order. */
  final List<String> contexts = new CopyOnWriteArrayList<>();
  /** The deadline's remaining time each invocation saw as current (empty without one), in order. */
  final List<Optional<Duration>> deadlinesSeen = new CopyOnWriteArrayList<>();

  private final ManualTimeSource clock;
  private final Deque<Step> steps = new ArrayDeque<>();
  private final List<CompletableFuture<Void>> holds = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);

  Script(ManualTimeSource clock) {
    this.clock = clock;
  }

  /** Queues the next invocations' steps. */
  synchronized void then(Step... next) {
    steps.addAll(Arrays.asList(next));
  }

  /** One invocation: its number from 1, its step, and for a held step the gate it waits on. */
  private static final class Invocation {
    final int number;
    final Step step;
    final CompletableFuture<Void> gate;

    Invocation(int number, Step step, CompletableFuture<Void> gate) {
      this.number = number;
      this.step = step;
      this.gate = gate;
    }
  }

  /**
   * Counts the invocation and takes its step under the lock {@link #releaseHeld} takes: a test that
   * has seen an invocation counted and then releases the held ones always finds its gate.
   */
  private synchronized Invocation begin() {
    int n = invocations.incrementAndGet();
    Step step = steps.isEmpty() ? Step.OK : steps.poll();
    return new Invocation(n, step, step == Step.HOLD ? hold() : null);
  }

  String sync(String key, String input) throws Exception {
    Invocation invocation = begin();
    int n = invocation.number;
    contexts.add(ContextFollowsTheCall.seen());
    deadlinesSeen.add(Deadline.current().map(Deadline::remaining));
    switch (invocation.step) {
      case EMPTY:
        return "";
      case IO:
        throw new IOException("io" + n);
      case ISE:
        throw new IllegalStateException("ise" + n);
      case WRAPPED_IO:
        throw new ExecutionException(new IOException("wrapped" + n));
      case THROTTLED:
        throw new Throttled("throttled" + n);
      case CONNECT:
        throw new java.net.ConnectException("connect" + n);
      case ERROR:
        throw error(n);
      case HANG:
        try {
          clock.sleep(Duration.ofHours(1));
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
        return "too late";
      case BLOCK:
        blockIgnoringInterrupts();
        return "too late";
      case HOLD:
        invocation.gate.get(LEAK_BACKSTOP.toMillis(), TimeUnit.MILLISECONDS);
        return input + n;
      case SLOW:
        clock.sleep(SLOW_TIME);
        return input + n;
      default:
        return input + n;
    }
  }

  CompletableFuture<String> async(String key, String input) {
    Invocation invocation = begin();
    int n = invocation.number;
    contexts.add(ContextFollowsTheCall.seen());
    deadlinesSeen.add(Deadline.current().map(Deadline::remaining));
    switch (invocation.step) {
      case EMPTY:
        return CompletableFuture.completedFuture("");
      case IO:
        return CompletableFuture.failedFuture(new IOException("io" + n));
      case ISE:
        return CompletableFuture.failedFuture(new IllegalStateException("ise" + n));
      case WRAPPED_IO:
        return CompletableFuture.failedFuture(new ExecutionException(new IOException("wrapped" + n)));
      case THROTTLED:
        return CompletableFuture.failedFuture(new Throttled("throttled" + n));
      case CONNECT:
        return CompletableFuture.failedFuture(new java.net.ConnectException("connect" + n));
      case ERROR:
        return CompletableFuture.failedFuture(error(n));
      case HANG:
      case BLOCK:
        CompletableFuture<String> never = new CompletableFuture<>();
        abandoned.add(never);
        return never;
      case HOLD:
        return invocation.gate.thenApply(released -> input + n);
      case SLOW:
        CompletableFuture<String> later = new CompletableFuture<>();
        clock.scheduler().schedule(() -> later.complete(input + n), SLOW_TIME.toNanos(), TimeUnit.NANOSECONDS);
        return later;
      default:
        return CompletableFuture.completedFuture(input + n);
    }
  }

  /**
   * One invocation of a reactive method: the step taken now, as {@link #async} takes it, and its
   * outcome as a {@code Mono}. Cancelling the subscription cancels the step's future, so a step
   * left hanging is seen cancelled as an async one is.
   */
  Mono<String> mono(String key, String input) {
    return Mono.fromFuture(async(key, input));
  }

  /** One invocation of a {@code Flux} method: {@link #mono}'s one element, or its failure. */
  Flux<String> flux(String key, String input) {
    return mono(key, input).flux();
  }

  /**
   * One invocation of a {@code suspend} function: the step taken now, as {@link #async} takes it,
   * and its outcome awaited, suspending until it ends unless it already has. Cancelling the
   * waiting coroutine cancels the step's future, so a step left hanging is seen cancelled as an
   * async one is.
   */
  Object suspend(String key, String input, Continuation<? super String> completion) {
    return FutureKt.await(async(key, input), completion);
  }

  /**
   * One invocation of a {@code Flow} method: a cold flow whose every collection takes a step, as
   * {@link #suspend} takes it, and emits its answer or fails with its failure.
   */
  Flow<String> flow(String key, String input) {
    return FlowKt.asFlow(completion -> suspend(key, input, completion));
  }

  private DependencyError error(int n) {
    DependencyError error = new DependencyError("error" + n);
    errors.add(error);
    return error;
  }

  private CompletableFuture<Void> hold() {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    holds.add(gate);
    if (closed.getCount() == 0) {
      gate.complete(null); // a step that starts after the test has ended holds nothing
    }
    return gate;
  }

  /** Lets every held invocation counted so far return. */
  synchronized void releaseHeld() {
    holds.forEach(gate -> gate.complete(null));
  }

  private void blockIgnoringInterrupts() {
    long deadline = System.nanoTime() + LEAK_BACKSTOP.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (closed.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
          return;
        }
      } catch (InterruptedException interrupted) {
        interruptsIgnored.incrementAndGet();
      }
    }
  }

  /** Releases whatever still holds or blocks, so no thread outlives its test. */
  @Override
  public void close() {
    closed.countDown();
    releaseHeld();
  }

  /**
   * @return a delegate of {@code type} whose call methods run this script and whose fallback
   *     methods (the interface's default methods) run as written, their last argument remembered
   */
  <T extends Shape> T as(Class<T> type) {
    InvocationHandler handler = (proxy, method, args) -> dispatch(proxy, method, args);
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private Object dispatch(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "call":
        return sync((String) args[0], (String) args[1]);
      case "callAsync":
        return async((String) args[0], (String) args[1]);
      case "callMono":
        return mono((String) args[0], (String) args[1]);
      case "callFlux":
        return flux((String) args[0], (String) args[1]);
      case "callSuspend":
        @SuppressWarnings("unchecked")
        Continuation<? super String> completion = (Continuation<? super String>) args[2];
        return suspend((String) args[0], (String) args[1], completion);
      case "callFlow":
        return flow((String) args[0], (String) args[1]);
      case "toString":
        return "script delegate";
      case "hashCode":
        return System.identityHashCode(proxy);
      case "equals":
        return proxy == args[0];
      default:
        if (!method.isDefault()) {
          throw new AssertionError("unexpected call of " + method);
        }
        if (args.length > 0 && args[args.length - 1] instanceof Throwable) {
          fallbackCauses.add((Throwable) args[args.length - 1]);
        }
        return InvocationHandler.invokeDefault(proxy, method, args);
    }
  }
}
