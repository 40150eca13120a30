package dev.brace.runtime.internal.attempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.DeadlineConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DeadlinePolicy;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.support.CallKeys;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one owner of an attempt's bound, driven directly on manual time: the bound is its own timeout
 * counted from the admission instant or the deadline it inherits, the earlier; it is passed on to
 * nested calls only when the call takes part in deadlines and has something to pass on; and an
 * attempt cut short says whose bound it was.
 */
class AttemptBoundsTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

  private final ManualTimeSource time = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());
  private final AttemptState state = new AttemptState().start(CallKeys.NONE);

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private DeadlinePolicy deadlines(boolean inherit) {
    return new DeadlinePolicy(DeadlineConfig.builder("Bounds.call").inherit(inherit).build(), "Bounds.call", time,
        time::scheduler, events);
  }

  private TimeoutPolicy timeout(String duration) {
    return new TimeoutPolicy(TimeoutConfig.builder("to").duration(duration).build(), "Bounds.call", time, time.scheduler(),
        Runnable::run, events);
  }

  private Deadline.Scope within(long millis) {
    return Deadline.open(Duration.ofMillis(millis), time);
  }

  /** Admission as the pipeline does it: the inherited deadline read, then the admission instant and the bound. */
  private void admit(AttemptBounds bounds) {
    bounds.enter(state);
    state.admittedAt = time.nanoTime();
    bounds.admitted(state);
  }

  private String hang() throws InterruptedException {
    time.sleep(Duration.ofHours(1));
    return "too late";
  }

  // ---- the bound ----

  @Test
  void theOwnTimeoutCountsFromTheAdmissionInstant() {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), deadlines(true), time, null);
    long admittedAt = time.nanoTime();
    admit(bounds);
    time.advance(Duration.ofMillis(400));

    assertEquals(admittedAt + SECOND, state.end);
    assertFalse(state.endInherited);
    assertEquals(SECOND, bounds.attemptNanos(state), "an asynchronous attempt arms its whole timeout");
  }

  @Test
  void anInheritedDeadlineEarlierThanTheTimeoutIsTheBound() {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), deadlines(true), time, null);
    long start = time.nanoTime();
    try (Deadline.Scope caller = within(300)) {
      admit(bounds);
      assertTrue(bounds.bounded(state));
    }
    time.advance(Duration.ofMillis(100));

    assertEquals(start + 300 * MILLI, state.end);
    assertTrue(state.endInherited);
    assertEquals(200 * MILLI, bounds.attemptNanos(state), "what is left of the deadline");
  }

  @Test
  void aTimeoutEarlierThanTheInheritedDeadlineIsTheBound() {
    AttemptBounds bounds = new AttemptBounds(timeout("100ms"), deadlines(true), time, null);
    long start = time.nanoTime();
    try (Deadline.Scope caller = within(300)) {
      admit(bounds);
    }
    assertEquals(start + 100 * MILLI, state.end);
    assertFalse(state.endInherited);
  }

  @Test
  void aCallThatDoesNotInheritIsBoundedByItsTimeoutAlone() {
    AttemptBounds ignoring = new AttemptBounds(timeout("1s"), deadlines(false), time, null);
    long start = time.nanoTime();
    try (Deadline.Scope caller = within(300)) {
      admit(ignoring);
      assertFalse(new AttemptBounds(null, deadlines(false), time, null).bounded(state), "nothing bounds it");
    }
    assertEquals(start + SECOND, state.end);
    assertFalse(state.endInherited);
  }

  @Test
  void aPassedDeadlineRefusesTheAttemptBeforeAnythingIsTaken() {
    AttemptBounds bounds = new AttemptBounds(null, deadlines(true), time, null);
    try (Deadline.Scope caller = within(100)) {
      time.advance(Duration.ofMillis(100));
      DeadlineExceededException refused = assertThrows(DeadlineExceededException.class, () -> bounds.enter(state));
      assertEquals(Duration.ofMillis(100), refused.deadline().budget());
    }
  }

  @Test
  void theBoundIsForgottenAfterTheAttempt() {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), deadlines(true), time, null);
    try (Deadline.Scope caller = within(300)) {
      admit(bounds);
    }
    AttemptBounds.forget(state);
    assertEquals(AttemptState.NO_DEADLINE, state.end);
    assertEquals(AttemptState.NO_DEADLINE, state.inheritedEnd);
    assertFalse(state.endInherited);
  }

  // ---- what is passed on ----

  @Test
  void anAttemptPassesItsOwnTimeoutOnToTheCallsNestedInIt() throws Throwable {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), deadlines(true), time, null);
    long admittedAt = time.nanoTime();
    admit(bounds);
    Deadline seen = (Deadline) bounds.invoke(state, () -> Deadline.current().orElseThrow());

    assertEquals(admittedAt + SECOND, seen.nanoTime());
    assertEquals(Duration.ofSeconds(1), seen.budget());
    assertSame(time, seen.clock());
    assertEquals(Optional.empty(), Deadline.current(), "taken off when the attempt ended");
  }

  @Test
  void theRetrysMaxDurationIsPassedOnWhenItEndsFirst() throws Throwable {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), deadlines(true), time, null);
    long started = time.nanoTime();
    state.callBegan(started, 500 * MILLI);
    admit(bounds);
    Deadline seen = (Deadline) bounds.invoke(state, () -> Deadline.current().orElseThrow());

    assertEquals(started + 500 * MILLI, seen.nanoTime());
    assertEquals(Duration.ofMillis(500), seen.budget());
  }

  @Test
  void aCallThatTakesNoPartInDeadlinesPassesNothingOn() throws Throwable {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), null, time, null);
    admit(bounds);
    assertEquals(Optional.empty(), bounds.invoke(state, Deadline::current));
  }

  @Test
  void anAttemptWithoutABoundPassesNothingOn() throws Throwable {
    AttemptBounds bounds = new AttemptBounds(null, deadlines(true), time, null);
    admit(bounds);
    assertEquals(Optional.empty(), bounds.invoke(state, Deadline::current));
  }

  @Test
  void anAttemptBoundByItsCallersDeadlineLeavesThatOneInPlace() throws Throwable {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), deadlines(true), time, null);
    try (Deadline.Scope caller = within(300)) {
      admit(bounds);
      // The caller's own object: nothing was laid over it (an attempt's bound is made afresh on each ask).
      assertSame(caller.deadline(), bounds.invoke(state, () -> Deadline.current().orElseThrow()));
    }
  }

  @Test
  void anAttemptWithABoundLaysItOverTheCallersDeadline() throws Throwable {
    AttemptBounds bounds = new AttemptBounds(timeout("100ms"), deadlines(true), time, null);
    try (Deadline.Scope caller = within(300)) {
      admit(bounds);
      Deadline seen = (Deadline) bounds.invoke(state, () -> Deadline.current().orElseThrow());
      assertNotSame(caller.deadline(), seen);
      assertEquals(Duration.ofMillis(100), seen.budget());
      assertSame(caller.deadline(), Deadline.current().orElseThrow(), "the caller's is current again");
    }
  }

  @Test
  void aCallThatMustFinishShieldsTheCallsNestedInItFromItsCallersDeadline() throws Throwable {
    AttemptBounds mustFinish = new AttemptBounds(null, deadlines(false), time, null);
    try (Deadline.Scope caller = within(300)) {
      admit(mustFinish);
      assertEquals(Optional.empty(), mustFinish.invoke(state, Deadline::current));
      assertTrue(Deadline.current().isPresent());
    }
  }

  @Test
  void aLaunchedAttemptPassesItsBoundOnOnlyWhileItsDelegateIsCalled() throws Throwable {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), deadlines(true), time, null);
    admit(bounds);
    AtomicReference<Deadline> seen = new AtomicReference<>();
    bounds.launch(state, () -> {
      seen.set(Deadline.current().orElseThrow());
      return null;
    });
    assertEquals(Duration.ofSeconds(1), seen.get().budget());
    assertEquals(Optional.empty(), Deadline.current());
  }

  // ---- what a timed-out attempt reports ----

  @Test
  void anAttemptPastItsOwnTimeoutEndsWithTimeoutExceeded() {
    AttemptBounds bounds = new AttemptBounds(timeout("100ms"), deadlines(true), time, null);
    TimeoutExceededException failure;
    try (Deadline.Scope caller = within(300)) {
      admit(bounds);
      failure = assertThrows(TimeoutExceededException.class, () -> bounds.invoke(state, this::hang));
    }
    assertFalse(failure instanceof DeadlineExceededException, "its own timeout: " + failure);
    assertFalse(bounds.timedOut(state) instanceof DeadlineExceededException, "and so for an asynchronous one");
  }

  @Test
  void anOwnTimeoutCountsFromTheAdmissionInstantEvenWhenTheAttemptStartsLater() {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), null, time, null);
    state.admittedAt = time.nanoTime();
    time.advance(Duration.ofMillis(500));

    assertThrows(TimeoutExceededException.class, () -> bounds.invoke(state, () -> {
      time.sleep(Duration.ofMillis(600));
      return "too late";
    }), "admitted 1.1 s before it ended: past its timeout, though it ran 0.6 s");
  }

  @Test
  void anAttemptThatFailsPastTheInheritedDeadlineByAnotherInterruptEndsWithDeadlineExceededCarryingItsFailure() {
    // The deadline's alarm is scheduled in real time, a minute away: it does not fire during the
    // test, so the attempt ends past the deadline by what it threw (an outer call's interrupt).
    ScheduledExecutorService realTime = Executors.newSingleThreadScheduledExecutor();
    try {
      DeadlinePolicy deadlines = new DeadlinePolicy(DeadlineConfig.builder("Bounds.call").build(), "Bounds.call", time,
          () -> realTime, events);
      AttemptBounds bounds = new AttemptBounds(null, deadlines, time, null);
      java.io.InterruptedIOException interrupted = new java.io.InterruptedIOException("an outer call's timeout");
      DeadlineExceededException failure;
      try (Deadline.Scope caller = within(60_000)) {
        admit(bounds);
        failure = assertThrows(DeadlineExceededException.class, () -> bounds.invoke(state, () -> {
          time.advance(Duration.ofSeconds(61));
          throw interrupted;
        }));
      }
      assertEquals(Duration.ofSeconds(60), failure.deadline().budget());
      assertSame(interrupted, failure.getSuppressed()[0], "what the attempt threw is kept");
    } finally {
      realTime.shutdownNow();
    }
  }

  @Test
  void anAttemptCutShortByTheInheritedDeadlineEndsWithDeadlineExceeded() {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), deadlines(true), time, null);
    long start = time.nanoTime();
    DeadlineExceededException failure;
    try (Deadline.Scope caller = within(300)) {
      admit(bounds);
      failure = assertThrows(DeadlineExceededException.class, () -> bounds.invoke(state, this::hang));
    }
    assertEquals(start + 300 * MILLI, time.nanoTime(), "cut short at the deadline");
    assertEquals(Duration.ofMillis(300), failure.deadline().budget());
    assertEquals(1, failure.getSuppressed().length, "what the attempt threw as it was cut off, and nothing else");
    assertInstanceOf(InterruptedException.class, failure.getSuppressed()[0]);
    assertInstanceOf(DeadlineExceededException.class, bounds.timedOut(state), "and so for an asynchronous one");
  }

  @Test
  void aTokenDueBeforeTheInheritedDeadlineIsWaitedForAndOneDueAfterItRefusesTheAttempt() {
    AttemptBounds bounds = new AttemptBounds(null, deadlines(true), time, null);
    List<Long> cancelled = new ArrayList<>();
    RateLimiterInstance limiter = new RateLimiterInstance() {
      @Override
      public String name() {
        return "quota";
      }

      @Override
      public void acquire() {}

      @Override
      public long reserveToken() {
        return 0;
      }

      @Override
      public long waitFor(long reservation) {
        return 0;
      }

      @Override
      public void cancelReservation(long reservation) {
        cancelled.add(reservation);
      }

      @Override
      public void waited(long waitedNanos) {}

      @Override
      public long availablePermits() {
        return 0;
      }

      @Override
      public double currentRate() {
        return 1;
      }
    };
    long now = time.nanoTime();
    try (Deadline.Scope caller = within(300)) {
      bounds.enter(state);
      bounds.checkToken(state, limiter, now + 200 * MILLI, now);
      assertEquals(List.of(), cancelled, "the token comes in time: the attempt waits for it");

      assertThrows(DeadlineExceededException.class, () -> bounds.checkToken(state, limiter, now + 300 * MILLI, now));
      assertEquals(List.of(now + 300 * MILLI), cancelled, "a token due at the deadline is given back");
    }
  }

  @Test
  void anAttemptUnderTheDeadlineAloneIsInterruptedAtIt() {
    AttemptBounds bounds = new AttemptBounds(null, deadlines(true), time, null);
    long start = time.nanoTime();
    try (Deadline.Scope caller = within(200)) {
      admit(bounds);
      assertThrows(DeadlineExceededException.class, () -> bounds.invoke(state, this::hang));
    }
    assertEquals(start + 200 * MILLI, time.nanoTime());
    assertFalse(Thread.currentThread().isInterrupted(), "the interrupt that cut it off is not left behind");
  }

  @Test
  void aNestedCallOutOfThePassedOnTimeoutIsTheAttemptsOwnTimeout() {
    AttemptBounds bounds = new AttemptBounds(timeout("1s"), deadlines(true), time, null);
    admit(bounds);
    DeadlineExceededException nested =
        deadlines(true).exceeded(state.end, SECOND, state.end);
    Throwable judged = bounds.judged(state, nested);
    assertInstanceOf(TimeoutExceededException.class, judged);
    assertFalse(judged instanceof DeadlineExceededException, "the breaker counts it: " + judged);
    assertSame(nested, judged.getSuppressed()[0]);

    DeadlineExceededException callers = deadlines(true).exceeded(state.end - MILLI, SECOND, state.end);
    assertSame(callers, bounds.judged(state, callers), "another deadline than the one passed on stays the caller's");
  }
}
