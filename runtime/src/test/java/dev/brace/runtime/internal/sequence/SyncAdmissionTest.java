package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sync driver's admission and end of a call: a caller that waits for a bulkhead permit, a
 * breaker that judges a failed attempt's latency, the {@code call.ended} a metrics listener hears
 * when a retry stops, an adaptive limiter that a timed attempt's success lets grow back, and a
 * half-open breaker's probe given back when its caller is interrupted.
 */
class SyncAdmissionTest {
  private final ManualTimeSource time = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(time).build();
  private final List<Event> events = new CopyOnWriteArrayList<>();

  SyncAdmissionTest() {
    registry.subscribeForMetrics(events::add);
  }

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  private List<Event> all(String kind) {
    return events.stream().filter(event -> event.kind().equals(kind)).toList();
  }

  /** The call ended once, as {@code outcome}: a metrics listener counts it once. */
  private void assertEndedOnceAs(String outcome) {
    List<Event> ended = all("call.ended");
    assertEquals(1, ended.size(), "call.ended is heard once");
    assertEquals(outcome, ended.get(0).attributes().get("outcome"));
  }

  /** Waits until {@code thread} is parked (waiting for a permit), without sleeping. */
  private static void awaitParked(Thread thread) {
    while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
      assertTrue(thread.isAlive(), "the waiter ended instead of waiting");
      Thread.onSpinWait();
    }
  }

  /**
   * One call holds the only permit until released; a second caller waits for it. Returns the
   * waiter's outcome after {@code whileWaiting} ran and the holder let go.
   */
  private String secondCallerWaits(Stack<String> stack, Runnable whileWaiting) throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch letGo = new CountDownLatch(1);
    AtomicBoolean holderDone = new AtomicBoolean();
    Thread holder = new Thread(() -> {
      try {
        stack.call(() -> {
          holding.countDown();
          letGo.await(10, TimeUnit.SECONDS);
          holderDone.set(true);
          return "first";
        });
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    holder.start();
    assertTrue(holding.await(10, TimeUnit.SECONDS));
    AtomicReference<String> second = new AtomicReference<>();
    Thread waiter = new Thread(() -> {
      try {
        second.set(stack.call(() -> holderDone.get() ? "after the holder" : "beside the holder"));
      } catch (Exception e) {
        second.set(e.toString());
      }
    });
    waiter.start();
    awaitParked(waiter);
    whileWaiting.run();
    letGo.countDown();
    holder.join(10_000);
    waiter.join(10_000);
    assertFalse(waiter.isAlive(), "the waiter was never given the released permit");
    return second.get();
  }

  @Test
  void aCallerThatWaitedForTheBulkheadGetsThePermitAndTheWaitIsReportedWithItsLength() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.wait")
        .bulkhead("pool", b -> b.maxConcurrent(1).maxWait("1s"))
        .build(registry);

    String second = secondCallerWaits(stack, () -> time.advance(Duration.ofMillis(200)));

    assertEquals("after the holder", second);
    List<Event> waited = all("bulkhead.waited");
    assertEquals(1, waited.size(), "one wait, reported once");
    assertEquals(Map.of("waited_ms", 200L, "waited_ns", 200_000_000L),
        Map.of("waited_ms", waited.get(0).attributes().get("waited_ms"),
            "waited_ns", waited.get(0).attributes().get("waited_ns")));
  }

  @Test
  void aWaitThatTookNoTimeOnTheClockIsNotReported() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.instant")
        .bulkhead("pool", b -> b.maxConcurrent(1).maxWait("1s"))
        .build(registry);

    String second = secondCallerWaits(stack, () -> { });

    assertEquals("after the holder", second);
    assertEquals(List.of(), all("bulkhead.waited"));
  }

  @Test
  void underATimeoutAndALimiterACallerStillWaitsForTheBulkheadPermit() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.bounded")
        .rateLimit("quota", l -> l.permits(100).per("1s").burst(100))
        .bulkhead("pool", b -> b.maxConcurrent(1).maxWait("1s"))
        .timeout(t -> t.duration("5s"))
        .build(registry);

    assertEquals("after the holder", secondCallerWaits(stack, () -> time.advance(Duration.ofMillis(200))));
    List<Event> waited = all("bulkhead.waited");
    assertEquals(1, waited.size(), "the wait is reported as without a timeout");
    assertEquals(200L, waited.get(0).attributes().get("waited_ms"));
  }

  @Test
  void aBreakerThatJudgesLatencyCountsASlowFailedAttemptAsSlowAndOpens() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.slow")
        .circuitBreaker("cb", b -> b.failureThreshold(5).slowCall("100ms").slowCallRate(1.0).minimumCalls(1)
            .resetTimeout("10s"))
        .build(registry);

    assertThrows(IOException.class, () -> stack.call(() -> {
      time.advance(Duration.ofMillis(200));
      throw new IOException("down, slowly");
    }));

    assertThrows(CircuitOpenException.class, () -> stack.call(() -> "never"),
        "one slow call of one is a slow-call rate of 1.0, though one failure is below the threshold of 5");
  }

  @Test
  void aRetryThatRunsOutOfAttemptsOnResultsEndsTheCallOnceWithTheLastResult() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.result")
        .retry(r -> r.maxAttempts(2).delay("100ms").jitter(Retry.Jitter.NONE).onResult("busy"::equals))
        .build(registry);

    assertEquals("busy", stack.call(() -> "busy"));

    assertEndedOnceAs("success");
  }

  @Test
  void aCallerInterruptedDuringTheBackoffEndsTheCallOnceAsAFailureAndKeepsItsInterrupt() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.interrupted")
        .retry(r -> r.maxAttempts(3).delay("100ms").jitter(Retry.Jitter.NONE))
        .build(registry);

    IOException thrown = assertThrows(IOException.class, () -> stack.call(() -> {
      Thread.currentThread().interrupt();
      throw new IOException("down");
    }));

    assertEquals("down", thrown.getMessage());
    assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is not swallowed");
    assertEndedOnceAs("failure");
  }

  @Test
  void aHalfOpenProbeRefusedByTheLimiterGivesItsProbeBack() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.probe")
        .circuitBreaker("cb", b -> b.failureThreshold(1).resetTimeout("10s"))
        .rateLimit("quota", l -> l.permits(1).per("1h").burst(1).maxWait("0s"))
        .build(registry);
    assertThrows(IOException.class, () -> stack.call(() -> {
      throw new IOException("down");
    }));
    time.advance(Duration.ofSeconds(10));

    assertThrows(RateLimitedException.class, () -> stack.call(() -> "never"), "the probe passes the breaker");
    assertThrows(RateLimitedException.class, () -> stack.call(() -> "never"),
        "the refused probe was given back, so the next call may probe");
  }

  @Test
  void underATimeoutASuccessGivesAnAdaptiveLimiterBackSomeOfItsRate() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.adaptive")
        .rateLimit("adaptive-quota", l -> l.permits(10).per("1s").adaptive(true).throttledOn(IllegalStateException.class)
            .decrease(0.5).increase(2))
        .timeout(t -> t.duration("5s"))
        .build(registry);

    assertThrows(IllegalStateException.class, () -> stack.call(() -> {
      throw new IllegalStateException("slow down");
    }));
    assertEquals(5.0, registry.rateLimiter("adaptive-quota").currentRate(), "a throttling failure halves the rate");

    assertEquals("ok", stack.call(() -> "ok"));
    assertEquals(7.0, registry.rateLimiter("adaptive-quota").currentRate(), "a success adds 2 permits per second back");
  }

  @Test
  void aProbeWhoseCallerWasInterruptedWhileItWaitedGivesItsPlaceBack() throws Exception {
    Stack<String> stack = Stack.<String>builder("S.probe")
        .circuitBreaker("probe-cb", b -> b.failureThreshold(1).successThreshold(1).resetTimeout("10s"))
        .timeout(t -> t.duration("5s").mode(Timeout.Mode.ABANDON))
        .build(registry);
    assertThrows(IOException.class, () -> stack.call(() -> {
      throw new IOException("down");
    }));
    time.advance(Duration.ofSeconds(10));
    Thread caller = Thread.currentThread();

    Exception gaveUp = assertThrows(Exception.class, () -> stack.call(() -> {
      caller.interrupt();
      new CountDownLatch(1).await(); // until the caller, giving up, interrupts this worker
      return "abandoned";
    }));

    assertTrue(TimeoutPolicy.interruptedCaller(gaveUp), "the caller's own interrupt: " + gaveUp);
    assertTrue(Thread.interrupted(), "the caller keeps its interrupt");
    assertEquals("probe", stack.call(() -> "probe"), "the interrupted probe's place is free for the next caller");
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("probe-cb").state());
  }
}
