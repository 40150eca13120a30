package dev.brace.runtime.spi.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Retry;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RecordedMetrics;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.support.Arguments;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * A driver written on the driver SPI and the public API alone, as a module outside the runtime
 * writes one: it decides nothing, and a call walked by it ends as the runtime's own synchronous
 * driver ends it.
 */
class DriverSpiTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();
  private static final Arguments NO_ARGUMENTS = new Arguments();

  /** The smallest driver: waits by moving the manual clock on, and records what the SPI told it. */
  private final class Walk {
    final List<Long> retryDelays = new ArrayList<>();
    final List<Long> waits = new ArrayList<>();
    int attempts;

    Object run(ResolvedCall resolved, Callable<?> delegate) throws Throwable {
      CallExecution execution = resolved.begin(NO_ARGUMENTS);
      while (true) {
        attempts = execution.startAttempt();
        Admission admission = execution.admit();
        while (admission instanceof Admission.Wait wait) {
          waits.add(wait.nanos());
          clock.advance(Duration.ofNanos(wait.nanos()));
          admission = execution.admit();
        }
        Throwable failure;
        if (admission instanceof Admission.Refused refused) {
          failure = refused.refusal();
        } else {
          Object result = null;
          Throwable launchFailure = null;
          try {
            result = execution.launch(() -> resolved.invoke(delegate, NO_ARGUMENTS));
          } catch (Throwable thrown) {
            launchFailure = thrown;
          }
          if (launchFailure != null) {
            failure = execution.failed(launchFailure);
          } else {
            try {
              execution.succeeded(result);
              execution.ended(null);
              return result;
            } catch (RuntimeException countedAsFailure) {
              // The breaker's result predicate threw: the attempt failed with it, already recorded.
              failure = countedAsFailure;
            }
          }
        }
        long delay = execution.retryDelay(failure);
        retryDelays.add(delay);
        if (delay == CallExecution.NO_RETRY) {
          execution.ended(failure);
          Throwable answering = execution.fallbackAnswering(failure);
          if (answering == null) {
            throw failure;
          }
          return execution.callFallback(delegate, NO_ARGUMENTS, answering);
        }
        clock.advance(Duration.ofNanos(delay));
      }
    }
  }

  @Test
  void theRetryDecidesAndTheLastFailureCarriesTheEarlierOnesAsTheSyncDriversDoes() throws Exception {
    Stack<String> stack = Stack.<String>builder("spi.retry")
        .retry(r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE))
        .build(registry);
    List<IOException> thrown = new ArrayList<>();
    Callable<String> failing = () -> {
      IOException failure = new IOException("attempt " + (thrown.size() + 1));
      thrown.add(failure);
      throw failure;
    };

    Walk walk = new Walk();
    IOException last = assertThrows(IOException.class, () -> walk.run(stack.resilientCall().resolved(), failing));

    assertEquals(3, walk.attempts);
    assertEquals(List.of(10_000_000L, 20_000_000L, CallExecution.NO_RETRY), walk.retryDelays, "10 ms, doubled, then no retry");
    assertSame(thrown.get(2), last);
    assertArrayEquals(new Throwable[] {thrown.get(0), thrown.get(1)}, last.getSuppressed(),
        "the earlier failures once each, though the driver ends the call after the retry attached them");

    thrown.clear();
    IOException bySyncDriver = assertThrows(IOException.class, () -> stack.call(failing));
    assertEquals(last.getSuppressed().length, bySyncDriver.getSuppressed().length);
  }

  @Test
  void anOpenBreakerRefusesWithItsException() throws Throwable {
    Stack<String> stack = Stack.<String>builder("spi.breaker").circuitBreaker("spi-breaker", b -> b.failureThreshold(1)).build(registry);
    IOException down = new IOException("down");
    Walk first = new Walk();
    assertSame(down, assertThrows(IOException.class, () -> first.run(stack.resilientCall().resolved(), () -> {
      throw down;
    })));

    CallExecution execution = stack.resilientCall().resolved().begin(NO_ARGUMENTS);
    execution.startAttempt();
    Admission admission = execution.admit();

    assertInstanceOf(CircuitOpenException.class, assertInstanceOf(Admission.Refused.class, admission).refusal());
  }

  @Test
  void aLimiterWithoutATokenSaysHowLongToWaitAndAdmitsAfterIt() throws Throwable {
    Stack<String> stack = Stack.<String>builder("spi.limiter")
        .rateLimit("spi-limiter", l -> l.permits(1).per("100ms").maxWait("1s"))
        .build(registry);
    Walk walk = new Walk();
    assertEquals("one", walk.run(stack.resilientCall().resolved(), () -> "one"));
    assertEquals(List.of(), walk.waits);

    assertEquals("two", walk.run(stack.resilientCall().resolved(), () -> "two"));

    assertEquals(List.of(100_000_000L), walk.waits, "the next token is 100 ms away; after it the attempt is admitted");
  }

  @Test
  void aFailureTheRetryWasNotAskedAboutGetsTheEarlierOnesWhenTheCallEnds() throws Throwable {
    Stack<String> stack = Stack.<String>builder("spi.stream")
        .retry(r -> r.maxAttempts(3).delay("1ms").jitter(Retry.Jitter.NONE))
        .build(registry);
    CallExecution execution = stack.resilientCall().resolved().begin(NO_ARGUMENTS);
    IOException first = new IOException("before any element");
    execution.startAttempt();
    assertSame(Admission.ADMITTED, execution.admit());
    long delay = execution.retryDelay(execution.failed(first));
    assertEquals(1_000_000L, delay);

    // A stream's second attempt passes elements on, then fails: it ends the call as it is.
    execution.startAttempt();
    assertSame(Admission.ADMITTED, execution.admit());
    IOException afterElements = new IOException("after elements");
    execution.ended(execution.failed(afterElements));

    assertArrayEquals(new Throwable[] {first}, afterElements.getSuppressed());
  }

  @Test
  void theFallbackAnswersThroughTheExecution() throws Throwable {
    Stack<String> stack = Stack.<String>builder("spi.fallback")
        .fallback(f -> f.on(IOException.class), cause -> "fallback:" + cause.getMessage())
        .build(registry);
    Walk walk = new Walk();

    assertEquals("fallback:x", walk.run(stack.resilientCall().resolved(), () -> {
      throw new IOException("x");
    }));

    CallExecution execution = stack.resilientCall().resolved().begin(NO_ARGUMENTS);
    assertNull(execution.fallbackAnswering(new IllegalStateException("not one it answers")));
    IllegalStateException fallbackFailure = new IllegalStateException("fallback failed");
    IOException original = new IOException("original");
    assertSame(fallbackFailure, execution.fallbackFailed(fallbackFailure, original));
    assertArrayEquals(new Throwable[] {original}, fallbackFailure.getSuppressed());
  }

  @Test
  void aSuccessGivesBackWhatTheAttemptHeldAndTheCallsEndIsReported() throws Throwable {
    RecordedMetrics metrics = new RecordedMetrics();
    registry.bindMetrics(metrics);
    Stack<String> stack = Stack.<String>builder("spi.success").bulkhead("spi-success", h -> h.maxConcurrent(1)).build(registry);
    Walk walk = new Walk();

    assertEquals("ok", walk.run(stack.resilientCall().resolved(), () -> {
      clock.advance(Duration.ofMillis(3));
      return "ok";
    }));

    assertEquals(1, registry.bulkhead("spi-success").available(), "the permit is back");
    assertEquals(List.of("spi.success attemptSucceeded 3000000", "spi.success succeeded 3000000"),
        metrics.starting("spi.success "));
  }

  @Test
  void anAttemptsBoundIsItsTimeoutAndItsPassingIsRecordedAsTheAttemptsFailure() {
    Stack<String> stack = Stack.<String>builder("spi.timeout")
        .circuitBreaker("spi-timeout", b -> b.failureThreshold(1))
        .timeout(t -> t.duration("50ms"))
        .build(registry);
    CallExecution execution = stack.resilientCall().resolved().begin(NO_ARGUMENTS);
    execution.startAttempt();
    assertSame(Admission.ADMITTED, execution.admit());

    assertEquals(50_000_000L, execution.attemptBoundNanos());
    assertInstanceOf(TimeoutExceededException.class, execution.timedOut());
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("spi-timeout").state(), "the timeout counted as a failure");
  }

  @Test
  void anAttemptWithNoTimeoutAndNoDeadlineHasNoBound() {
    Stack<String> stack = Stack.<String>builder("spi.unbounded").retry(r -> r.maxAttempts(2)).build(registry);
    CallExecution execution = stack.resilientCall().resolved().begin(NO_ARGUMENTS);
    execution.startAttempt();
    assertSame(Admission.ADMITTED, execution.admit());

    assertEquals(-1L, execution.attemptBoundNanos());
  }

  @Test
  void anAbandonedAttemptGivesBackWhatItHeldAndCountsNothing() {
    Stack<String> stack = Stack.<String>builder("spi.abandon")
        .circuitBreaker("spi-abandon", b -> b.failureThreshold(1))
        .bulkhead("spi-abandon", h -> h.maxConcurrent(1))
        .build(registry);
    CallExecution execution = stack.resilientCall().resolved().begin(NO_ARGUMENTS);
    execution.startAttempt();
    assertSame(Admission.ADMITTED, execution.admit());
    assertEquals(0, registry.bulkhead("spi-abandon").available());

    execution.abandon();

    assertEquals(1, registry.bulkhead("spi-abandon").available(), "the permit is back");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("spi-abandon").state(), "no outcome recorded");
  }

  @Test
  void stepsOnAnotherThreadRunInTheContextTheCallBeganIn() throws Exception {
    Stack<String> stack = Stack.<String>builder("spi.context").retry(r -> r.maxAttempts(2)).build(registry);
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      MDC.put("request", "caller");
      CallExecution execution = stack.resilientCall().resolved().begin(NO_ARGUMENTS);
      MDC.remove("request");

      AtomicReference<String> inStep = new AtomicReference<>();
      other.submit(execution.inCallersContext(() -> inStep.set(MDC.get("request")))).get();
      String inScope = other.submit(() -> {
        MDC.put("request", "the thread's own");
        try (CallerScope scope = execution.enterCallersContext()) {
          return MDC.get("request");
        } finally {
          assertEquals("the thread's own", MDC.get("request"), "the scope put the thread's own back");
          MDC.clear();
        }
      }).get();

      assertEquals("caller", inStep.get());
      assertEquals("caller", inScope);
    } finally {
      other.shutdownNow();
      MDC.clear();
    }
  }

  @Test
  void theSchedulerIsTheRegistrys() {
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try {
      Registry withScheduler = Registry.builder().timeSource(clock).scheduler(scheduler).build();
      Stack<String> stack = Stack.<String>builder("spi.scheduler").retry(r -> r.maxAttempts(2)).build(withScheduler);

      assertSame(scheduler, stack.resilientCall().resolved().begin(NO_ARGUMENTS).scheduler());
    } finally {
      scheduler.shutdownNow();
    }
  }

  @Test
  void anAdmissionSaysWhatItCarries() {
    assertThrows(IllegalArgumentException.class, () -> new Admission.Wait(-1));
    assertThrows(NullPointerException.class, () -> new Admission.Refused(null));
    assertEquals(5L, new Admission.Wait(5).nanos());
  }
}
