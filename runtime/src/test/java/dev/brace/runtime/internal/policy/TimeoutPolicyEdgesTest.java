package dev.brace.runtime.internal.policy;

import dev.brace.Timeout;
import dev.brace.runtime.Event;
import dev.brace.runtime.EventKind;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.spi.driver.DelegateCall;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A timeout's edges: the deadline counted from admission, a nested attempt's own deadline, a
 * caller's interrupt kept through every way out (timed out, refused, interrupted while it waited,
 * answered in the instant of the deadline), and the event of an abandoned attempt.
 */
class TimeoutPolicyEdgesTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());
  private final List<Event> seen = new CopyOnWriteArrayList<>();
  private final Executor ownThreads = task -> new Thread(task).start();

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private TimeoutPolicy policy(Timeout.Mode mode, ScheduledExecutorService scheduler, Executor workers) {
    TimeoutConfig config = TimeoutConfig.builder("T").duration("1s").mode(mode).build();
    events.subscribe(seen::add);
    return new TimeoutPolicy(config, "C.m", clock, scheduler, workers, events);
  }

  private TimeoutPolicy policy(Timeout.Mode mode) {
    return policy(mode, clock.scheduler(), ownThreads);
  }

  @Test
  void theDeadlineCountsFromTheAdmissionInstantNotedBeforeTheAttempt() {
    TimeoutPolicy policy = policy(Timeout.Mode.INTERRUPT);
    long admitted = clock.nanoTime();
    clock.advance(Duration.ofMillis(600));

    TimeoutExceededException timedOut = assertThrows(TimeoutExceededException.class, () -> policy.call(() -> {
      clock.sleep(Duration.ofHours(1));
      return "late";
    }, admitted + policy.nanos(), policy.nanos(), policy.mode(), policy.ownExpiry()));
    assertEquals(Duration.ofSeconds(1), Duration.ofNanos(clock.nanoTime() - admitted));

    // What the attempt ended with is kept, and the expiry is reported once, as the timeout's own.
    assertEquals(1, timedOut.getSuppressed().length);
    assertTrue(timedOut.getSuppressed()[0] instanceof InterruptedException, timedOut.getSuppressed()[0].toString());
    assertFalse(TimeoutPolicy.interruptedCaller(timedOut), "the deadline's doing, not an interrupt of the caller");
    assertEquals(1, seen.size(), seen.toString());
    assertTrue(seen.get(0).is(EventKind.TIMEOUT_EXCEEDED));
    assertEquals("INTERRUPT", seen.get(0).attributes().get("mode"));
    assertEquals("C.m", seen.get(0).attributes().get("call"));
  }

  @Test
  void aNestedAttemptThatIgnoresInterruptsTimesOutAtItsOwnDeadline() {
    TimeoutPolicy policy = policy(Timeout.Mode.INTERRUPT);
    long start = clock.nanoTime();
    List<String> inner = new CopyOnWriteArrayList<>();

    assertThrows(TimeoutExceededException.class, () -> timed(policy, () -> {
      clock.advance(Duration.ofMillis(500));
      try {
        inner.add(timed(policy, () -> {
          clock.advance(Duration.ofSeconds(2));
          return "inner answered";
        }));
      } catch (TimeoutExceededException timedOut) {
        inner.add("inner timed out");
      }
      return "outer answered";
    }));

    assertEquals(List.of("inner timed out"), inner);
    assertEquals(Duration.ofMillis(2500), Duration.ofNanos(clock.nanoTime() - start));
  }

  @Test
  void anInterruptTheCallerHadBeforeSurvivesItsTimeout() {
    TimeoutPolicy policy = policy(Timeout.Mode.INTERRUPT);
    Thread.currentThread().interrupt();

    assertThrows(TimeoutExceededException.class, () -> timed(policy, () -> {
      clock.advance(Duration.ofSeconds(2));
      return "late";
    }));
    assertTrue(Thread.interrupted(), "the caller's own interrupt is still set");
  }

  @Test
  void aSchedulerThatRefusesTheWatchdogFailsTheCallAndKeepsTheCallersInterrupt() {
    ScheduledExecutorService shutDown = Executors.newSingleThreadScheduledExecutor();
    shutDown.shutdown();
    TimeoutPolicy policy = policy(Timeout.Mode.INTERRUPT, shutDown, ownThreads);
    Thread.currentThread().interrupt();

    assertThrows(RejectedExecutionException.class, () -> timed(policy, () -> "never run"));
    assertTrue(Thread.interrupted(), "the caller's own interrupt is still set");
  }

  @Test
  void workersThatRefuseTheAttemptFailTheCallAndKeepTheCallersInterrupt() {
    TimeoutPolicy policy = policy(Timeout.Mode.ABANDON, clock.scheduler(), task -> {
      throw new RejectedExecutionException("no worker");
    });
    Thread.currentThread().interrupt();

    assertThrows(RejectedExecutionException.class, () -> timed(policy, () -> "never run"));
    assertTrue(Thread.interrupted(), "the caller's own interrupt is still set");
    clock.advance(Duration.ofSeconds(2));
    assertFalse(Thread.currentThread().isInterrupted(), "the refused attempt's deadline was disarmed");
  }

  @Test
  void workersThatRefuseTheAttemptAsItsAlarmFiresLeaveNoInterruptOfTheAlarmsBehind() {
    TimeoutPolicy policy = policy(Timeout.Mode.ABANDON, clock.scheduler(), task -> {
      clock.advance(Duration.ofSeconds(2));
      throw new RejectedExecutionException("no worker");
    });

    assertThrows(RejectedExecutionException.class, () -> timed(policy, () -> "never run"));
    assertFalse(Thread.interrupted(), "the alarm fired, and its interrupt is cleared");
  }

  @Test
  void workersThatRefuseTheAttemptAsItsAlarmFiresKeepTheCallersInterrupt() {
    TimeoutPolicy policy = policy(Timeout.Mode.ABANDON, clock.scheduler(), task -> {
      clock.advance(Duration.ofSeconds(2));
      throw new RejectedExecutionException("no worker");
    });
    Thread.currentThread().interrupt();

    assertThrows(RejectedExecutionException.class, () -> timed(policy, () -> "never run"));
    assertTrue(Thread.interrupted(), "the caller's own interrupt is still set");
  }

  @Test
  void anAbandoningCallerInterruptedWhileItWaitsIsReleasedAndItsWorkerInterrupted() throws Exception {
    TimeoutPolicy policy = policy(Timeout.Mode.ABANDON);
    Thread caller = Thread.currentThread();
    CountDownLatch workerInterrupted = new CountDownLatch(1);

    Throwable thrown = assertThrows(Throwable.class, () -> timed(policy, () -> {
      caller.interrupt();
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException expected) {
        workerInterrupted.countDown();
      }
      return "abandoned";
    }));

    assertTrue(TimeoutPolicy.interruptedCaller(thrown), "reported as the caller's interrupt: " + thrown);
    assertTrue(Thread.interrupted(), "the caller keeps the interrupt it was given");
    assertTrue(workerInterrupted.await(10, TimeUnit.SECONDS), "the worker was told to give up");
    assertEquals(List.of(), seen, "not a timeout");
  }

  @Test
  void anAbandoningAttemptThatAnswersInTheInstantItsDeadlineFiresGivesItsAnswer() throws Throwable {
    // A worker that runs on the caller's thread finishes in the very instant the deadline fires.
    TimeoutPolicy policy = policy(Timeout.Mode.ABANDON, clock.scheduler(), Runnable::run);

    assertEquals("answer", timed(policy, () -> {
      clock.advance(Duration.ofSeconds(2));
      return "answer";
    }));
    assertFalse(Thread.currentThread().isInterrupted(), "the deadline's interrupt is cleared");

    Thread.currentThread().interrupt();
    assertEquals("answer", timed(policy, () -> {
      clock.advance(Duration.ofSeconds(2));
      return "answer";
    }));
    assertTrue(Thread.interrupted(), "an interrupt the caller had before is kept");
    assertEquals(List.of(), seen, "an answer, not a timeout");
  }

  @Test
  void anAbandonedAttemptReportsTimeoutExceededWithItsAttributes() throws Exception {
    TimeoutPolicy policy = policy(Timeout.Mode.ABANDON);
    CountDownLatch workerInterrupted = new CountDownLatch(1);

    assertThrows(TimeoutExceededException.class, () -> timed(policy, () -> {
      clock.advance(Duration.ofSeconds(2));
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException expected) {
        workerInterrupted.countDown();
      }
      return "abandoned";
    }));

    assertTrue(workerInterrupted.await(10, TimeUnit.SECONDS));
    assertFalse(Thread.currentThread().isInterrupted());
    assertEquals(1, seen.size(), seen.toString());
    Event event = seen.get(0);
    assertTrue(event.is(EventKind.TIMEOUT_EXCEEDED));
    assertEquals("T", event.instance());
    Map<String, Object> attributes = event.attributes();
    assertEquals("C.m", attributes.get("call"));
    assertEquals(1000L, ((Number) attributes.get("timeout_ms")).longValue());
    assertEquals("ABANDON", attributes.get("mode"));
    assertEquals(TimeoutExceededException.class.getName(), attributes.get("exception"));
  }

  /** One attempt under {@code policy}, its deadline counted from now. */
  @SuppressWarnings("unchecked")
  private <T> T timed(TimeoutPolicy policy, DelegateCall attempt) throws Throwable {
    return (T) policy.call(attempt, clock.nanoTime() + policy.nanos(), policy.nanos(), policy.mode(), policy.ownExpiry());
  }
}
