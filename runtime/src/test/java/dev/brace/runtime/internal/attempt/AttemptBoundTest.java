package dev.brace.runtime.internal.attempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Retry;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.TimeoutExceededException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Which bound an attempt runs under when it has several (its own timeout, its caller's deadline,
 * its retry's {@code maxDuration}), what it passes on to the calls it makes, and whose failure it is
 * when that bound runs out — on manual time, through a registry.
 */
class AttemptBoundTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final List<Event> events = new CopyOnWriteArrayList<>();
  private final Registry registry = Registry.builder().timeSource(clock).environment(Map.of()).systemProperties(Map.of()).build();

  AttemptBoundTest() {
    registry.subscribe(events::add);
  }

  private Deadline.Scope within(long millis) {
    return Deadline.open(Duration.ofMillis(millis), clock);
  }

  private long eventsOf(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).count();
  }

  /** A dependency that hangs on manual time until its attempt is cut short. */
  private String hang() throws InterruptedException {
    clock.sleep(Duration.ofHours(1));
    return "too late";
  }

  /** What a nested call would inherit: the current deadline as seen inside the attempt. */
  private static final Callable<Deadline> PASSED_ON = () -> Deadline.current().orElseThrow(() -> new AssertionError("no bound passed on"));

  // ---- admission ----

  @Test
  void aCallPastItsDeadlineTakesNoTokenFromItsLimiter() {
    Stack<String> stack = Stack.<String>builder("Tokens.past").rateLimit("past", l -> l.permits(1).per("1s")).build(registry);
    try (Deadline.Scope scope = within(100)) {
      clock.advance(Duration.ofMillis(150));
      assertThrows(DeadlineExceededException.class, () -> stack.call(() -> "never"));
    }
    assertEquals(1, registry.rateLimiter("past").availablePermits(), "refused before the limiter was asked");
  }

  /** A token due at the very instant the deadline passes is too late: the attempt could not start before it. */
  @Test
  void aTokenDueExactlyAtTheDeadlineIsGivenBackAndTheCallRefusedAtOnce() throws Exception {
    Stack<String> stack = Stack.<String>builder("Tokens.exact")
        .rateLimit("exact", l -> l.permits(1).per("1s").maxWait("5s")).build(registry);
    assertEquals("first", stack.call(() -> "first"));
    long start = clock.nanoTime();
    try (Deadline.Scope scope = within(1000)) {
      assertThrows(DeadlineExceededException.class, () -> stack.call(() -> "never"));
    }
    assertEquals(start, clock.nanoTime(), "refused without sleeping until the deadline");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, registry.rateLimiter("exact").availablePermits(), "the reserved token was given back");
  }

  // ---- the attempt's own bound ----

  @Test
  void anOwnTimeoutEarlierThanTheDeadlineEndsTheAttemptAndTheBreakerCountsIt() {
    Stack<String> stack = Stack.<String>builder("Own.earlier")
        .circuitBreaker("own-earlier", b -> b.failureThreshold(1)).timeout(t -> t.duration("100ms")).build(registry);
    long start = clock.nanoTime();
    TimeoutExceededException failure;
    try (Deadline.Scope scope = within(1000)) {
      failure = assertThrows(TimeoutExceededException.class, () -> stack.call(this::hang));
    }
    assertFalse(failure instanceof DeadlineExceededException, "the call's own timeout expired: " + failure);
    assertEquals(Duration.ofMillis(100), Duration.ofNanos(clock.nanoTime() - start));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("own-earlier").state());
  }

  /**
   * A caller whose deadline ends exactly when the call's own timeout does did not cut the call
   * short: the timeout would have ended it then anyway, so the dependency was too slow and its
   * breaker counts it.
   */
  @Test
  void aTimeoutEndingWithTheDeadlineIsTheCallsOwnAndTheBreakerCountsIt() {
    Stack<String> stack = Stack.<String>builder("Own.tie")
        .circuitBreaker("own-tie", b -> b.failureThreshold(1)).timeout(t -> t.duration("300ms")).build(registry);
    TimeoutExceededException failure;
    try (Deadline.Scope scope = within(300)) {
      failure = assertThrows(TimeoutExceededException.class, () -> stack.call(this::hang));
    }
    assertFalse(failure instanceof DeadlineExceededException, "the call's own timeout expired: " + failure);
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("own-tie").state());
    assertEquals(1, eventsOf("timeout.exceeded"));
    assertEquals(0, eventsOf("deadline.exceeded"));
  }

  // ---- what an attempt passes on ----

  /** A later attempt's timeout may reach past the whole call's {@code maxDuration}: the earlier of the two is passed on. */
  @Test
  void aMaxDurationEndingBeforeALaterAttemptsTimeoutIsWhatTheNestedCallsInherit() throws Exception {
    Stack<Deadline> stack = Stack.<Deadline>builder("Passes.maxDuration")
        .retry(r -> r.maxAttempts(2).delay("100ms").jitter(Retry.Jitter.NONE).maxDuration("1500ms"))
        .timeout(t -> t.duration("1s")).build(registry);
    List<Deadline> passedOn = new CopyOnWriteArrayList<>();
    stack.call(() -> {
      passedOn.add(PASSED_ON.call());
      if (passedOn.size() == 1) {
        clock.advance(Duration.ofMillis(800));
        throw new IOException("slow and failed");
      }
      return passedOn.get(1);
    });
    assertEquals(Duration.ofSeconds(1), passedOn.get(0).budget(), "the first attempt's own timeout ends first");
    assertEquals(Duration.ofMillis(600), passedOn.get(1).remaining(), "admitted at 900 ms, the call ends at 1.5 s");
    assertEquals(Duration.ofMillis(1500), passedOn.get(1).budget());
  }

  @Test
  void aTimeoutShorterThanTheMaxDurationIsWhatTheNestedCallsInherit() throws Exception {
    Stack<Deadline> stack = Stack.<Deadline>builder("Passes.timeout")
        .retry(r -> r.maxAttempts(2).delay("10ms").maxDuration("5s")).timeout(t -> t.duration("1s")).build(registry);
    Deadline passedOn = stack.call(PASSED_ON);
    assertEquals(Duration.ofSeconds(1), passedOn.remaining());
    assertEquals(Duration.ofSeconds(1), passedOn.budget());
  }

  /** The caller's deadline is passed on as it is (its budget, for reports) unless the whole call's ends strictly earlier. */
  @Test
  void aMaxDurationEndingWithTheCallersDeadlinePassesTheCallersDeadlineOn() throws Exception {
    Stack<Deadline> stack = Stack.<Deadline>builder("Passes.tie")
        .retry(r -> r.maxAttempts(2).delay("10ms").maxDuration("2s")).build(registry);
    Deadline passedOn;
    Deadline callers;
    try (Deadline.Scope scope = within(5000)) {
      callers = scope.deadline();
      clock.advance(Duration.ofSeconds(3));
      passedOn = stack.call(PASSED_ON);
    }
    assertEquals(callers.nanoTime(), passedOn.nanoTime());
    assertEquals(Duration.ofSeconds(5), passedOn.budget(), "the caller's deadline, not the retry's maxDuration");
  }

  /** The frame and ticket of a thread serve every call on it, whatever its wrapper. */
  @Test
  void aCallAfterOneWithAMaxDurationPassesNoStaleBoundOn() throws Exception {
    Stack<String> bounded = Stack.<String>builder("Whole.bounded")
        .retry(r -> r.maxAttempts(2).delay("10ms").jitter(Retry.Jitter.NONE).maxDuration("2s")).build(registry);
    Stack<String> plain = Stack.<String>builder("Whole.plain").circuitBreaker("whole-plain", b -> b.failureThreshold(5)).build(registry);
    Callable<String> seen = () -> Deadline.current().map(d -> d.remaining().toString()).orElse("none");
    assertEquals("PT2S", bounded.call(seen));
    assertEquals("none", plain.call(seen), "the plain call has no maxDuration of its own");
  }

  // ---- whose failure a nested call's is ----

  /**
   * The nested call could not get its token before the bound its caller's attempt passed on: that
   * bound is the outer call's own timeout, reached first by the nested call, so the outer call
   * failed by its own timeout and its breaker counts it.
   */
  @Test
  void aNestedCallThatCannotFitInTheBoundPassedOnEndsTheAttemptByItsOwnTimeout() throws Exception {
    Stack<String> inner = Stack.<String>builder("Inner.limited")
        .rateLimit("inner-limited", l -> l.permits(1).per("1s").maxWait("5s")).build(registry);
    Stack<String> outer = Stack.<String>builder("Outer.timed")
        .circuitBreaker("outer-timed", b -> b.failureThreshold(1)).timeout(t -> t.duration("300ms")).build(registry);
    assertEquals("first", inner.call(() -> "first"));

    TimeoutExceededException failure = assertThrows(TimeoutExceededException.class,
        () -> outer.call(() -> inner.call(() -> "never")));

    assertFalse(failure instanceof DeadlineExceededException, "the outer call's own timeout: " + failure);
    assertInstanceOf(DeadlineExceededException.class, failure.getSuppressed()[0], "what the nested call ended with");
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("outer-timed").state());
    assertEquals(1, eventsOf("timeout.exceeded"));
  }

  /** A deadline the attempt itself opened, shorter than its timeout, ran out: that is not the outer call's timeout. */
  @Test
  void aNestedCallRunningOutOfADeadlineOpenedInsideTheAttemptIsNotTheOuterCallsTimeout() throws Exception {
    Stack<String> inner = Stack.<String>builder("Inner.limitedAgain")
        .rateLimit("inner-again", l -> l.permits(1).per("1s").maxWait("5s")).build(registry);
    Stack<String> outer = Stack.<String>builder("Outer.timedAgain")
        .circuitBreaker("outer-again", b -> b.failureThreshold(1)).timeout(t -> t.duration("300ms")).build(registry);
    assertEquals("first", inner.call(() -> "first"));

    DeadlineExceededException failure = assertThrows(DeadlineExceededException.class, () -> outer.call(() -> {
      try (Deadline.Scope shorter = within(100)) {
        return inner.call(() -> "never");
      }
    }));

    assertEquals(Duration.ofMillis(100), failure.deadline().budget());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("outer-again").state());
    assertEquals(0, eventsOf("timeout.exceeded"));
  }

  @Test
  void aCallUnderItsCallersDeadlineReturnsWhatItsDependencyReturned() throws Exception {
    Stack<String> stack = Stack.<String>builder("Returns.underDeadline")
        .circuitBreaker("returns", b -> b.failureThreshold(5)).build(registry);
    try (Deadline.Scope scope = within(1000)) {
      assertSame("value", stack.call(() -> "value"));
    }
  }
}
