package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One set of behavioural scenarios run through all four forms (generated wrapper or Stack, sync
 * or async) with the same settings. Each scenario asserts what the spec promise, so the four
 * forms agree with the spec and with each other.
 */
class ConformanceTest {

  /** What one invocation of the delegate does. */
  enum Step { OK, IO, ISE, HANG }

  /** A delegate scripted step by step, counting invocations; hanging sleeps on manual time (sync) or never completes (async). */
  static final class Script {
    private final Deque<Step> steps = new ArrayDeque<>();
    final AtomicInteger invocations = new AtomicInteger();
    private final ManualTimeSource clock;

    Script(ManualTimeSource clock) {
      this.clock = clock;
    }

    void then(Step... next) {
      steps.addAll(Arrays.asList(next));
    }

    String sync(String input) throws IOException {
      int n = invocations.incrementAndGet();
      Step step = steps.isEmpty() ? Step.OK : steps.poll();
      switch (step) {
        case IO:
          throw new IOException("io" + n);
        case ISE:
          throw new IllegalStateException("ise" + n);
        case HANG:
          try {
            clock.sleep(Duration.ofMinutes(1));
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
          }
          return "too late";
        default:
          return input + n;
      }
    }

    CompletableFuture<String> async(String input) {
      int n = invocations.incrementAndGet();
      Step step = steps.isEmpty() ? Step.OK : steps.poll();
      switch (step) {
        case IO:
          return CompletableFuture.failedFuture(new IOException("io" + n));
        case ISE:
          return CompletableFuture.failedFuture(new IllegalStateException("ise" + n));
        case HANG:
          return new CompletableFuture<>();
        default:
          return CompletableFuture.completedFuture(input + n);
      }
    }
  }

  /** One of the four forms, calling through its own registry. */
  interface Form {
    String call(String input) throws Exception;
  }

  /** A form and what it needs: its script, clock and registry. */
  record Setup(String name, ManualTimeSource clock, Registry registry, Script script, Form form) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<String> forms() {
    return Stream.of("generated sync", "generated async", "Stack sync", "Stack async");
  }

  private static Setup setup(String name) {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = Registry.builder().timeSource(clock).build();
    Script script = new Script(clock);
    Form form;
    switch (name) {
      case "generated sync": {
        Conformance wrapper = ResilientConformance.wrap(new Delegate(script), registry);
        form = wrapper::call;
        break;
      }
      case "generated async": {
        Conformance wrapper = ResilientConformance.wrap(new Delegate(script), registry);
        form = input -> await(clock, wrapper.callAsync(input));
        break;
      }
      case "Stack sync": {
        Stack<String> stack = stack(registry);
        form = input -> stack.call(() -> script.sync(input));
        break;
      }
      default: {
        Stack<String> stack = stack(registry);
        form = input -> await(clock, stack.callAsync(() -> script.async(input)));
      }
    }
    return new Setup(name, clock, registry, script, form);
  }

  /** The Stack with the settings of {@link Conformance}. */
  private static Stack<String> stack(Registry registry) {
    return Stack.<String>builder("Conformance.call")
        .timeout(t -> t.duration("1s"))
        .circuitBreaker("conformance", b -> b.failureThreshold(3).resetTimeout("10s"))
        .retry(r -> r.maxAttempts(3).delay("100ms").jitter(Retry.Jitter.NONE).on(IOException.class))
        .fallback(f -> f.on(IllegalStateException.class), cause -> "fallback:" + cause.getMessage())
        .build(registry);
  }

  /** Drives manual time until the future completes, then returns or throws its real cause. */
  private static String await(ManualTimeSource clock, CompletionStage<String> stage) throws Exception {
    CompletableFuture<String> future = stage.toCompletableFuture();
    for (int step = 0; step < 1000 && !future.isDone(); step++) {
      clock.advance(Duration.ofMillis(50));
    }
    try {
      return future.get();
    } catch (ExecutionException failed) {
      Throwable cause = failed.getCause();
      if (cause instanceof Exception) {
        throw (Exception) cause;
      }
      throw (Error) cause;
    }
  }

  private static final class Delegate implements Conformance {
    private final Script script;

    Delegate(Script script) {
      this.script = script;
    }

    @Override
    public String call(String input) throws IOException {
      return script.sync(input);
    }

    @Override
    public CompletableFuture<String> callAsync(String input) {
      return script.async(input);
    }
  }

  private static Exception failure(Form form, String input) {
    String value;
    try {
      value = form.call(input);
    } catch (Exception thrown) {
      return thrown;
    }
    throw new AssertionError("expected a failure, got " + value);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void aTransientFailureIsRetriedUntilItSucceeds(String name) throws Exception {
    Setup setup = setup(name);
    setup.script.then(Step.IO, Step.IO, Step.OK);

    assertEquals("v3", setup.form.call("v"));
    assertEquals(3, setup.script.invocations.get());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void exhaustionRethrowsTheLastFailureWithTheEarlierOnesSuppressed(String name) {
    Setup setup = setup(name);
    setup.script.then(Step.IO, Step.IO, Step.IO);

    Exception thrown = failure(setup.form, "v");

    assertTrue(thrown instanceof IOException, String.valueOf(thrown));
    assertEquals("io3", thrown.getMessage());
    assertEquals(2, thrown.getSuppressed().length);
    assertEquals("io1", thrown.getSuppressed()[0].getMessage());
    assertEquals(3, setup.script.invocations.get());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void aFailureOutsideRetryOnIsNotRetriedAndTheFallbackAnswersIt(String name) throws Exception {
    Setup setup = setup(name);
    setup.script.then(Step.ISE);

    assertEquals("fallback:ise1", setup.form.call("v"));
    assertEquals(1, setup.script.invocations.get());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void theBreakerOpensItsRefusalIsNotRetriedAndAProbeClosesItAfterTheResetTimeout(String name) throws Exception {
    Setup setup = setup(name);
    setup.script.then(Step.IO, Step.IO, Step.IO);
    failure(setup.form, "v");
    assertEquals(CircuitState.OPEN, setup.registry.circuitBreaker("conformance").state());

    Exception refused = failure(setup.form, "v");

    assertTrue(refused instanceof CircuitOpenException, String.valueOf(refused));
    assertEquals(3, setup.script.invocations.get(), "the refused call never reached the delegate");
    setup.clock.advance(Duration.ofSeconds(10));
    assertEquals("v4", setup.form.call("v"));
    assertEquals(CircuitState.CLOSED, setup.registry.circuitBreaker("conformance").state());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void anExpiredAttemptIsACountedFailure(String name) {
    Setup setup = setup(name);
    setup.script.then(Step.HANG, Step.HANG, Step.HANG);

    Exception thrown = failure(setup.form, "v");

    assertTrue(thrown instanceof TimeoutExceededException, String.valueOf(thrown));
    assertEquals(1, setup.script.invocations.get(), "TimeoutExceededException is not an IOException: not retried");
    assertEquals(CircuitState.CLOSED, setup.registry.circuitBreaker("conformance").state());
    failure(setup.form, "v");
    failure(setup.form, "v");
    assertEquals(CircuitState.OPEN, setup.registry.circuitBreaker("conformance").state(), "three timeouts open it");
    assertTrue(!Thread.currentThread().isInterrupted());
  }
}
