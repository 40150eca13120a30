package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DefaultCircuitBreakerTest {
  private static final Duration RESET_TIMEOUT = Duration.ofSeconds(10);

  private final ManualTimeSource time = new ManualTimeSource();
  private final EventBus bus = new EventBus(Clock.systemUTC());
  private final List<Event> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void listen() {
    bus.subscribe(events::add);
  }

  private CircuitBreakerConfig.Builder classic(int failureThreshold) {
    return CircuitBreakerConfig.builder("backend")
        .failureThreshold(failureThreshold)
        .resetTimeout(RESET_TIMEOUT);
  }

  private CircuitBreakerConfig.Builder rate(double failureRate, int minimumCalls) {
    return CircuitBreakerConfig.builder("backend")
        .failureRate(failureRate)
        .minimumCalls(minimumCalls)
        .window(Duration.ofSeconds(10))
        .windowBuckets(10)
        .resetTimeout(RESET_TIMEOUT);
  }

  private DefaultCircuitBreaker breaker(CircuitBreakerConfig.Builder config) {
    return new DefaultCircuitBreaker(config.build(), time, bus);
  }

  private static void fail(DefaultCircuitBreaker breaker) {
    breaker.onFailure(breaker.acquire(), new IOException("boom"));
  }

  private static void succeed(DefaultCircuitBreaker breaker) {
    breaker.onSuccess(breaker.acquire());
  }

  /** Opens a classic breaker with threshold 1 and lets its cooldown pass. */
  private DefaultCircuitBreaker cooledDown(CircuitBreakerConfig.Builder config) {
    DefaultCircuitBreaker breaker = breaker(config);
    fail(breaker);
    assertEquals(CircuitState.OPEN, breaker.state());
    time.advance(RESET_TIMEOUT);
    return breaker;
  }

  private List<Event> events(String kind) {
    return events.stream().filter(e -> e.kind().equals(kind)).collect(Collectors.toList());
  }

  private Event onlyEvent(String kind) {
    List<Event> matching = events(kind);
    assertEquals(1, matching.size(), () -> "events " + kind + " in " + events);
    return matching.get(0);
  }

  /** The circuit stayed HALF_OPEN and its probe slot is free again. */
  private static void assertProbeSlotFree(DefaultCircuitBreaker breaker) {
    assertEquals(CircuitState.HALF_OPEN, breaker.state());
    assertNotNull(breaker.acquire());
  }

  private static Optional<Duration> refusal(DefaultCircuitBreaker breaker) {
    return assertThrows(CircuitOpenException.class, breaker::acquire).retryAfter();
  }

  @Nested
  class ClassicMode {
    @Test
    void aTicketOnlyIfClosedIsTheClosedCircuitsOwnAndNoneOtherwiseWithNothingReported() {
      DefaultCircuitBreaker breaker = breaker(classic(1));
      Object closed = breaker.takeNow();
      assertSame(breaker, DefaultCircuitBreaker.ownerOf(closed));
      breaker.onSuccess(closed);

      fail(breaker);
      int reported = events.size();
      assertNull(breaker.takeNow(), "open");
      time.advance(RESET_TIMEOUT);
      assertNull(breaker.takeNow(), "open and cooled down: the probe is acquire()'s to take");

      assertEquals(CircuitState.OPEN, breaker.state());
      assertEquals(reported, events.size(), "asking is neither a refusal nor a probe");
      Object probe = breaker.acquire();
      assertNull(breaker.takeNow(), "half-open");
      breaker.release(probe);
    }

    @Test
    void opensAtTheThresholdOfConsecutiveFailures() {
      DefaultCircuitBreaker breaker = breaker(classic(3));
      fail(breaker);
      fail(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state());
      assertTrue(events("circuit.opened").isEmpty());

      fail(breaker);

      assertEquals(CircuitState.OPEN, breaker.state());
      assertThrows(CircuitOpenException.class, breaker::acquire);
    }

    @Test
    void aSuccessStartsTheCountAgain() {
      DefaultCircuitBreaker breaker = breaker(classic(3));
      fail(breaker);
      fail(breaker);
      succeed(breaker);
      fail(breaker);
      fail(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state());
      fail(breaker);
      assertEquals(CircuitState.OPEN, breaker.state());
    }

    @Test
    void openedEventCarriesTheThresholdAndTheFailure() {
      DefaultCircuitBreaker breaker = breaker(classic(2));
      fail(breaker);
      breaker.onFailure(breaker.acquire(), new IllegalStateException("down"));

      Map<String, Object> attributes = onlyEvent("circuit.opened").attributes();
      assertEquals(2, attributes.get("failure_threshold"));
      assertEquals(2, attributes.get("failures"));
      assertEquals(IllegalStateException.class.getName(), attributes.get("exception"));
      assertEquals("down", attributes.get("message"));
      assertEquals(10_000L, attributes.get("retry_after_ms"));
      assertFalse(attributes.containsKey("failure_rate"));
      assertEquals("backend", onlyEvent("circuit.opened").instance());
    }

    @Test
    void outcomesOfCallsAdmittedBeforeTheTripDoNotFireItAgain() {
      DefaultCircuitBreaker breaker = breaker(classic(2));
      Object[] tickets = {breaker.acquire(), breaker.acquire(), breaker.acquire(), breaker.acquire()};
      for (Object ticket : tickets) {
        breaker.onFailure(ticket, new IOException("boom"));
      }
      assertEquals(CircuitState.OPEN, breaker.state());
      assertEquals(1, events("circuit.opened").size());
    }

    /**
     * Two failures that both reach the threshold race to open the circuit: the one that opens it
     * reports it, the other reports nothing. The race is made deterministic by a clock whose read
     * (taken when the cooldown starts, just before the transition) lets the second failure in.
     */
    @Test
    void ofTwoFailuresRacingToOpenTheCircuitOnlyTheWinnerReportsIt() {
      Runnable[] onNextRead = {null};
      dev.brace.runtime.TimeSource racing = new dev.brace.runtime.TimeSource() {
        @Override
        public long nanoTime() {
          Runnable hook = onNextRead[0];
          onNextRead[0] = null;
          if (hook != null) {
            hook.run();
          }
          return time.nanoTime();
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
          time.sleep(duration);
        }
      };
      DefaultCircuitBreaker breaker = new DefaultCircuitBreaker(classic(2).build(), racing, bus);
      Object first = breaker.acquire();
      Object second = breaker.acquire();
      Object third = breaker.acquire();
      breaker.onFailure(first, new IOException("one"));
      onNextRead[0] = () -> breaker.onFailure(third, new IOException("three"));

      breaker.onFailure(second, new IOException("two"));

      assertEquals(CircuitState.OPEN, breaker.state());
      assertEquals(1, events("circuit.opened").size(), "reported once, by the failure that opened it");
      assertEquals("three", onlyEvent("circuit.opened").attributes().get("message"));
    }

    @Test
    void describesItselfByNameAndState() {
      DefaultCircuitBreaker breaker = breaker(classic(1));
      assertEquals("CircuitBreaker[backend, CLOSED]", breaker.toString());
      fail(breaker);
      assertEquals("CircuitBreaker[backend, OPEN]", breaker.toString());
    }

    @Test
    void reportsTheSettingsItRunsOnAfterNewOnes() {
      DefaultCircuitBreaker breaker = breaker(classic(3));
      CircuitBreakerConfig next = classic(5).build();
      breaker.reconfigure(next);
      assertSame(next, breaker.config());
      assertEquals("backend", breaker.name());
    }

    @Test
    void admittingWhileClosedHandsOutTheSameTicket() {
      DefaultCircuitBreaker breaker = breaker(classic(3));
      Object ticket = breaker.acquire();
      assertNotNull(ticket);
      assertSame(ticket, breaker.acquire());
      assertSame(breaker, DefaultCircuitBreaker.ownerOf(ticket));
    }
  }

  @Nested
  class WhatCounts {
    @Test
    void anExceptionOutsideOnNeitherCountsNorResetsTheCount() {
      DefaultCircuitBreaker breaker = breaker(classic(2).on(IOException.class));
      fail(breaker);
      for (int i = 0; i < 5; i++) {
        breaker.onFailure(breaker.acquire(), new IllegalStateException("not counted"));
      }
      assertEquals(CircuitState.CLOSED, breaker.state());
      fail(breaker);
      assertEquals(CircuitState.OPEN, breaker.state());
    }

    @Test
    void anErrorIsNeverRecorded() {
      DefaultCircuitBreaker breaker = breaker(classic(1).on(Throwable.class));
      breaker.onFailure(breaker.acquire(), new StackOverflowError());
      breaker.onFailure(breaker.acquire(), new CompletionException(new OutOfMemoryError()));
      assertEquals(CircuitState.CLOSED, breaker.state());
      assertTrue(events.isEmpty(), () -> events.toString());
    }

    @Test
    void anIgnoredExceptionDoesNotCountEvenWhenOnMatchesIt() {
      DefaultCircuitBreaker breaker =
          breaker(classic(1).on(RuntimeException.class).ignore(UncheckedIOException.class));
      breaker.onFailure(breaker.acquire(), new UncheckedIOException(new IOException("ignored")));
      assertEquals(CircuitState.CLOSED, breaker.state());
      breaker.onFailure(breaker.acquire(), new IllegalStateException("counted"));
      assertEquals(CircuitState.OPEN, breaker.state());
    }

    @Test
    void anAsyncWrapperIsLookedThrough() {
      DefaultCircuitBreaker breaker = breaker(classic(1).on(IOException.class));
      breaker.onFailure(breaker.acquire(), new CompletionException(new IOException("inner")));
      assertEquals(CircuitState.OPEN, breaker.state());
      Map<String, Object> attributes = onlyEvent("circuit.opened").attributes();
      assertEquals(IOException.class.getName(), attributes.get("exception"));
      assertEquals("inner", attributes.get("message"));
    }

    @Test
    void aResultTheOnResultPredicateAcceptsIsAFailure() {
      DefaultCircuitBreaker breaker = breaker(classic(2).onResult((String r) -> r.isEmpty()));
      breaker.onResult(breaker.acquire(), "");
      breaker.onResult(breaker.acquire(), "fine");
      breaker.onResult(breaker.acquire(), "");
      assertEquals(CircuitState.CLOSED, breaker.state());
      breaker.onResult(breaker.acquire(), "");
      assertEquals(CircuitState.OPEN, breaker.state());
      assertFalse(onlyEvent("circuit.opened").attributes().containsKey("exception"));
    }

    @Test
    void withoutAPredicateEveryResultIsASuccess() {
      DefaultCircuitBreaker breaker = breaker(classic(2));
      fail(breaker);
      breaker.onResult(breaker.acquire(), null);
      fail(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state());
    }

    @Test
    void aPredicateThatThrowsFreesTheProbeSlot() {
      DefaultCircuitBreaker breaker =
          cooledDown(classic(1).onResult(r -> {
            throw new IllegalStateException("bad predicate");
          }));
      Object probe = breaker.acquire();
      assertThrows(IllegalStateException.class, () -> breaker.onResult(probe, "x"));
      assertProbeSlotFree(breaker);
    }
  }

  @Nested
  class RateMode {
    @Test
    void failuresExpireWithTheirBucket() {
      DefaultCircuitBreaker breaker = breaker(rate(0.5, 4).failureThreshold(1));
      time.advance(Duration.ofMillis(500));
      fail(breaker);
      fail(breaker);
      // The bucket of t=0.5s covers [0s, 1s): it leaves the 10s window at t=10s, not 10.5s.
      time.advance(Duration.ofMillis(9_500));
      succeed(breaker);
      succeed(breaker);
      fail(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state(), "2 calls then 1 failure of 3: below 4 calls");
      succeed(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state(), "1 failure of 4 calls");
    }

    @Test
    void failuresStillInTheWindowCountAndASuccessCanOpenIt() {
      DefaultCircuitBreaker breaker = breaker(rate(0.5, 4));
      time.advance(Duration.ofMillis(500));
      fail(breaker);
      fail(breaker);
      time.advance(Duration.ofMillis(9_499));
      succeed(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state());

      succeed(breaker);

      assertEquals(CircuitState.OPEN, breaker.state());
      Map<String, Object> attributes = onlyEvent("circuit.opened").attributes();
      assertEquals(0.5, attributes.get("failure_rate"));
      assertEquals(0.5, attributes.get("failure_rate_threshold"));
      assertEquals("10s", attributes.get("window"));
      assertEquals(4L, attributes.get("observed_calls"));
      assertEquals(10_000L, attributes.get("retry_after_ms"));
      assertFalse(attributes.containsKey("exception"), "a success tripped it");
      assertFalse(attributes.containsKey("failure_threshold"));
    }

    @Test
    void theRateIsNotJudgedBelowMinimumCalls() {
      DefaultCircuitBreaker breaker = breaker(rate(0.5, 5));
      for (int i = 0; i < 4; i++) {
        fail(breaker);
      }
      assertEquals(CircuitState.CLOSED, breaker.state());
      breaker.onFailure(breaker.acquire(), new IllegalStateException("fifth"));
      assertEquals(CircuitState.OPEN, breaker.state());
      Map<String, Object> attributes = onlyEvent("circuit.opened").attributes();
      assertEquals(1.0, attributes.get("failure_rate"));
      assertEquals(5L, attributes.get("observed_calls"));
      assertEquals(IllegalStateException.class.getName(), attributes.get("exception"));
      assertEquals("fifth", attributes.get("message"));
    }

    @Test
    void theFailureThresholdIsIgnored() {
      DefaultCircuitBreaker breaker = breaker(rate(0.9, 10).failureThreshold(1));
      fail(breaker);
      fail(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state());
    }

    @Test
    void aCallWindowHoldsTheLastCallsOnly() {
      DefaultCircuitBreaker breaker = breaker(rate(0.5, 4).windowCalls(4));
      succeed(breaker);
      succeed(breaker);
      succeed(breaker);
      fail(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state(), "1 of 4");
      // Of all five calls 2 failed (0.4); of the last four, 2 (0.5).
      fail(breaker);
      assertEquals(CircuitState.OPEN, breaker.state());
      Map<String, Object> attributes = onlyEvent("circuit.opened").attributes();
      assertEquals("last 4 calls", attributes.get("window"));
      assertEquals(4L, attributes.get("observed_calls"));
    }

    @Test
    void aCallWindowDoesNotExpireWithTime() {
      DefaultCircuitBreaker breaker = breaker(rate(0.5, 2).windowCalls(10));
      fail(breaker);
      time.advance(Duration.ofHours(1));
      fail(breaker);
      assertEquals(CircuitState.OPEN, breaker.state());
    }
  }

  /** Slow calls: {@code slowCall} set, the outcome's latency judged beside its failure. */
  @Nested
  class SlowCalls {
    private static final long SLOW = Duration.ofSeconds(2).toNanos();
    private static final long QUICK = Duration.ofMillis(100).toNanos();

    private CircuitBreakerConfig.Builder slow(double slowCallRate, int minimumCalls) {
      return CircuitBreakerConfig.builder("backend")
          .slowCall("1s")
          .slowCallRate(slowCallRate)
          .minimumCalls(minimumCalls)
          .window(Duration.ofSeconds(10))
          .resetTimeout(RESET_TIMEOUT);
    }

    @Test
    void opensOnTheShareOfSlowCallsEvenInClassicMode() {
      DefaultCircuitBreaker breaker = breaker(slow(0.5, 4));
      breaker.onResult(breaker.acquire(), "ok", SLOW);
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      breaker.onResult(breaker.acquire(), "ok", SLOW);
      assertEquals(CircuitState.CLOSED, breaker.state(), "below minimumCalls");
      breaker.onResult(breaker.acquire(), "ok", QUICK);

      assertEquals(CircuitState.OPEN, breaker.state(), "2 slow of 4, every one a success");
      Map<String, Object> attributes = onlyEvent("circuit.opened").attributes();
      assertEquals(0.5, attributes.get("slow_call_rate"));
      assertEquals(0.5, attributes.get("slow_call_rate_threshold"));
      assertEquals(4L, attributes.get("observed_calls"));
      assertEquals("10s", attributes.get("window"));
      assertFalse(attributes.containsKey("failure_rate"), "failures are not judged by rate in classic mode");
    }

    @Test
    void exactlySlowCallIsNotSlow() {
      DefaultCircuitBreaker breaker = breaker(slow(0.5, 1));
      breaker.onResult(breaker.acquire(), "ok", Duration.ofSeconds(1).toNanos());
      assertEquals(CircuitState.CLOSED, breaker.state(), "slow means longer than slowCall");
      breaker.onResult(breaker.acquire(), "ok", Duration.ofSeconds(1).toNanos() + 1);
      assertEquals(CircuitState.OPEN, breaker.state());
    }

    @Test
    void classicFailuresStillOpenItByTheirCount() {
      DefaultCircuitBreaker breaker = breaker(slow(1.0, 10).failureThreshold(2));
      breaker.onFailure(breaker.acquire(), new IOException("quick"), QUICK);
      breaker.onFailure(breaker.acquire(), new IOException("quick"), QUICK);
      assertEquals(CircuitState.OPEN, breaker.state(), "two consecutive failures, as without slowCall");
      assertEquals(2, onlyEvent("circuit.opened").attributes().get("failures"));
    }

    @Test
    void aSuccessStartsTheClassicCountAgainAsWithoutSlowCall() {
      DefaultCircuitBreaker breaker = breaker(slow(1.0, 10).failureThreshold(2));
      breaker.onFailure(breaker.acquire(), new IOException("quick"), QUICK);
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      breaker.onFailure(breaker.acquire(), new IOException("quick"), QUICK);
      assertEquals(CircuitState.CLOSED, breaker.state(), "the success between the failures reset the count");
      breaker.onFailure(breaker.acquire(), new IOException("quick"), QUICK);
      assertEquals(CircuitState.OPEN, breaker.state());
    }

    @Test
    void inRateModeBothRatesAreReported() {
      DefaultCircuitBreaker breaker = breaker(slow(0.5, 2).failureRate(0.9));
      breaker.onFailure(breaker.acquire(), new IOException("slow and failed"), SLOW);
      assertEquals(CircuitState.CLOSED, breaker.state());
      breaker.onResult(breaker.acquire(), "ok", QUICK);

      assertEquals(CircuitState.OPEN, breaker.state(), "1 slow of 2 reaches 0.5; 1 failure of 2 does not reach 0.9");
      Map<String, Object> attributes = onlyEvent("circuit.opened").attributes();
      assertEquals(0.5, attributes.get("failure_rate"));
      assertEquals(0.9, attributes.get("failure_rate_threshold"));
      assertEquals(0.5, attributes.get("slow_call_rate"));
      assertEquals(0.5, attributes.get("slow_call_rate_threshold"));
    }

    @Test
    void anOpeningByFailuresReportsTheWholeWindowWhenNoCallWasSlow() {
      // The slow window holds no slow outcome, so it answers each quick one without adding up its
      // stripes; the event still reports every call the window holds and a slow rate of 0.
      DefaultCircuitBreaker breaker = breaker(slow(0.5, 4).failureRate(0.5));
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      breaker.onFailure(breaker.acquire(), new IOException("quick"), QUICK);
      breaker.onFailure(breaker.acquire(), new IOException("quick"), QUICK);

      assertEquals(CircuitState.OPEN, breaker.state(), "2 failures of 4 reach 0.5");
      Map<String, Object> attributes = onlyEvent("circuit.opened").attributes();
      assertEquals(0.5, attributes.get("failure_rate"));
      assertEquals(0.0, attributes.get("slow_call_rate"));
      assertEquals(4L, attributes.get("observed_calls"));
    }

    @Test
    void slowCallsExpireWithTheirBucket() {
      DefaultCircuitBreaker breaker = breaker(slow(0.5, 2));
      breaker.onResult(breaker.acquire(), "ok", SLOW);
      time.advance(Duration.ofSeconds(10));
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      assertEquals(CircuitState.CLOSED, breaker.state(), "the slow call left the window");
    }

    @Test
    void aCallWindowCountsTheLastCallsOnly() {
      DefaultCircuitBreaker breaker = breaker(slow(0.5, 2).windowCalls(2));
      breaker.onResult(breaker.acquire(), "ok", SLOW);
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      assertEquals(CircuitState.OPEN, breaker.state());
    }

    @Test
    void anUntimedOutcomeIsNeverSlow() {
      DefaultCircuitBreaker breaker = breaker(slow(1.0, 1));
      breaker.onSuccess(breaker.acquire());
      breaker.onResult(breaker.acquire(), "ok");
      assertEquals(CircuitState.CLOSED, breaker.state());
    }

    @Test
    void anUncountedFailureIsNoOutcomeHoweverSlow() {
      DefaultCircuitBreaker breaker = breaker(slow(1.0, 1).ignore(IllegalStateException.class));
      breaker.onFailure(breaker.acquire(), new IllegalStateException("ignored"), SLOW);
      assertEquals(CircuitState.CLOSED, breaker.state());
    }

    @Test
    void aSlowProbeIsAFailedProbe() {
      DefaultCircuitBreaker breaker = breaker(slow(1.0, 1));
      breaker.onResult(breaker.acquire(), "ok", SLOW);
      assertEquals(CircuitState.OPEN, breaker.state());
      time.advance(RESET_TIMEOUT);
      events.clear();

      breaker.onResult(breaker.acquire(), "ok but slow", SLOW);

      assertEquals(CircuitState.OPEN, breaker.state(), "a slow probe re-opens it");
      Map<String, Object> attributes = onlyEvent("circuit.opened").attributes();
      assertEquals("HALF_OPEN", attributes.get("from"));
      assertEquals(1000L, attributes.get("slow_call_ms"));
      time.advance(RESET_TIMEOUT);
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      assertEquals(CircuitState.CLOSED, breaker.state(), "a quick probe closes it");
    }

    @Test
    void aCountWindowBelowMinimumCallsIsRefusedInClassicModeToo() {
      dev.brace.runtime.ConfigurationException refused =
          assertThrows(dev.brace.runtime.ConfigurationException.class, () -> slow(1.0, 20).windowCalls(10).build());
      assertTrue(refused.getMessage().contains("windowCalls"), refused.getMessage());
    }

    @Test
    void settingsAreChecked() {
      assertThrows(dev.brace.runtime.ConfigurationException.class, () -> CircuitBreakerConfig.builder("b").slowCallRate(0));
      assertThrows(dev.brace.runtime.ConfigurationException.class, () -> CircuitBreakerConfig.builder("b").slowCallRate(1.5));
      assertThrows(dev.brace.runtime.ConfigurationException.class, () -> CircuitBreakerConfig.builder("b").slowCall("0ms"));
      assertThrows(dev.brace.runtime.ConfigurationException.class, () -> CircuitBreakerConfig.builder("b").slowCall("soon"));
      assertFalse(CircuitBreakerConfig.builder("b").slowCall("").build().judgesSlowCalls());
      assertFalse(CircuitBreakerConfig.builder("b").build().judgesSlowCalls(), "off by default");
      assertEquals(1.0, CircuitBreakerConfig.builder("b").build().slowCallRate());
    }
  }

  @Nested
  class Open {
    @Test
    void refusesWithTheTimeUntilAProbe() {
      DefaultCircuitBreaker breaker = breaker(classic(1));
      fail(breaker);
      assertEquals(Optional.of(RESET_TIMEOUT), refusal(breaker));
      assertEquals(Optional.of(RESET_TIMEOUT), breaker.retryAfter());

      time.advance(Duration.ofSeconds(3));

      assertEquals(Optional.of(Duration.ofSeconds(7)), refusal(breaker));
      assertEquals(Optional.of(Duration.ofSeconds(7)), breaker.retryAfter());
      List<Event> rejected = events("circuit.rejected");
      assertEquals(2, rejected.size());
      assertEquals("OPEN", rejected.get(1).attributes().get("state"));
      assertEquals(7_000L, rejected.get(1).attributes().get("retry_after_ms"));
    }

    @Test
    void theCooldownCountsFromWhenTheFailingCallReturned() {
      DefaultCircuitBreaker breaker = breaker(classic(1));
      Object slowCall = breaker.acquire();
      time.advance(Duration.ofSeconds(5));
      breaker.onFailure(slowCall, new IOException("slow failure"));

      assertEquals(Optional.of(RESET_TIMEOUT), breaker.retryAfter());
      time.advance(RESET_TIMEOUT.minusMillis(1));
      assertThrows(CircuitOpenException.class, breaker::acquire);
      time.advance(Duration.ofMillis(1));
      assertNotNull(breaker.acquire());
      assertEquals(CircuitState.HALF_OPEN, breaker.state());
    }

    @Test
    void readingTheStateNeverMovesItToHalfOpen() {
      DefaultCircuitBreaker breaker = cooledDown(classic(1));
      time.advance(Duration.ofMinutes(5));
      assertEquals(CircuitState.OPEN, breaker.state());
      assertEquals(Optional.of(Duration.ZERO), breaker.retryAfter());
      assertTrue(events("circuit.half_open").isEmpty());

      breaker.acquire();

      assertEquals(CircuitState.HALF_OPEN, breaker.state());
      assertEquals(Optional.empty(), breaker.retryAfter());
      onlyEvent("circuit.half_open");
    }
  }

  @Nested
  class HalfOpen {
    @Test
    void admitsOneProbeAtATime() {
      DefaultCircuitBreaker breaker = cooledDown(classic(1));
      Object probe = breaker.acquire();

      assertEquals(Optional.empty(), refusal(breaker));
      assertEquals(Optional.empty(), refusal(breaker));

      Event rejected = events("circuit.rejected").get(0);
      assertEquals("HALF_OPEN", rejected.attributes().get("state"));
      assertFalse(rejected.attributes().containsKey("retry_after_ms"));
      breaker.onSuccess(probe);
      assertEquals(CircuitState.CLOSED, breaker.state());
      onlyEvent("circuit.closed");
    }

    @Test
    void closesAfterSuccessThresholdProbeSuccessesInARow() {
      DefaultCircuitBreaker breaker = cooledDown(classic(1).successThreshold(2));
      breaker.onSuccess(breaker.acquire());
      assertEquals(CircuitState.HALF_OPEN, breaker.state());
      assertTrue(events("circuit.closed").isEmpty());

      breaker.onSuccess(breaker.acquire());

      assertEquals(CircuitState.CLOSED, breaker.state());
      onlyEvent("circuit.closed");
      onlyEvent("circuit.half_open");
    }

    @Test
    void closingClearsTheRateWindow() {
      DefaultCircuitBreaker breaker = breaker(rate(0.5, 2).windowCalls(10));
      fail(breaker);
      fail(breaker);
      time.advance(RESET_TIMEOUT);
      succeed(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state());

      fail(breaker);

      assertEquals(CircuitState.CLOSED, breaker.state(), "one call is below minimumCalls");
    }

    @Test
    void aProbeFailureReopensWithTheClassicAttributesAndANewCooldown() {
      DefaultCircuitBreaker breaker = breaker(rate(0.5, 2).failureThreshold(7));
      fail(breaker);
      fail(breaker);
      time.advance(RESET_TIMEOUT);
      Object probe = breaker.acquire();
      time.advance(Duration.ofSeconds(4));

      breaker.onFailure(probe, new IllegalStateException("still down"));

      assertEquals(CircuitState.OPEN, breaker.state());
      assertEquals(Optional.of(RESET_TIMEOUT), breaker.retryAfter());
      List<Event> opened = events("circuit.opened");
      assertEquals(2, opened.size());
      Map<String, Object> attributes = opened.get(1).attributes();
      assertEquals(7, attributes.get("failure_threshold"));
      assertEquals(1, attributes.get("failures"));
      assertEquals(IllegalStateException.class.getName(), attributes.get("exception"));
      assertEquals("still down", attributes.get("message"));
      assertEquals(10_000L, attributes.get("retry_after_ms"));
      assertFalse(attributes.containsKey("failure_rate"));
    }

    @Test
    void aProbeSuccessAfterAnEarlierProbeSuccessAndAFailureReopens() {
      DefaultCircuitBreaker breaker = cooledDown(classic(1).successThreshold(3));
      breaker.onSuccess(breaker.acquire());
      fail(breaker);
      assertEquals(CircuitState.OPEN, breaker.state());
    }

    @Test
    void aReleasedProbeFreesTheSlotAndKeepsItsSuccesses() {
      DefaultCircuitBreaker breaker = cooledDown(classic(1).successThreshold(2));
      breaker.onSuccess(breaker.acquire());

      breaker.release(breaker.acquire());
      assertEquals(CircuitState.HALF_OPEN, breaker.state());
      breaker.onFailure(breaker.acquire(), new StackOverflowError());
      assertEquals(CircuitState.HALF_OPEN, breaker.state());
      breaker.onFailure(breaker.acquire(), new AssertionError("an Error, never recorded"));
      assertEquals(CircuitState.HALF_OPEN, breaker.state());

      breaker.onSuccess(breaker.acquire());
      assertEquals(CircuitState.CLOSED, breaker.state());
    }

    @Test
    void anUncountedProbeFailureFreesTheSlot() {
      DefaultCircuitBreaker breaker = cooledDown(classic(1).on(IOException.class));
      breaker.onFailure(breaker.acquire(), new IllegalArgumentException("not counted"));
      assertProbeSlotFree(breaker);
    }
  }

  @Nested
  class StaleTickets {
    @Test
    void aSuccessAdmittedWhileClosedDoesNotCloseAHalfOpenCircuit() {
      DefaultCircuitBreaker breaker = breaker(classic(1));
      Object admittedWhileClosed = breaker.acquire();
      fail(breaker);
      time.advance(RESET_TIMEOUT);
      Object probe = breaker.acquire();

      breaker.onSuccess(admittedWhileClosed);

      assertEquals(CircuitState.HALF_OPEN, breaker.state());
      assertEquals(Optional.empty(), refusal(breaker), "the probe is still in flight");
      breaker.onSuccess(probe);
      assertEquals(CircuitState.CLOSED, breaker.state());
    }

    @Test
    void aFailureAdmittedWhileClosedDoesNotReopenAHalfOpenCircuit() {
      DefaultCircuitBreaker breaker = breaker(classic(1));
      Object admittedWhileClosed = breaker.acquire();
      fail(breaker);
      time.advance(RESET_TIMEOUT);
      Object probe = breaker.acquire();

      breaker.onFailure(admittedWhileClosed, new IOException("late"));
      breaker.release(admittedWhileClosed);

      assertEquals(CircuitState.HALF_OPEN, breaker.state());
      assertEquals(Optional.empty(), refusal(breaker), "the probe is still in flight");
      assertEquals(1, events("circuit.opened").size());
      breaker.onSuccess(probe);
      assertEquals(CircuitState.CLOSED, breaker.state());
    }

    @Test
    void aFailureFromAnEarlierClosedStretchIsNotCountedInTheNextOne() {
      DefaultCircuitBreaker breaker = breaker(classic(2));
      Object old = breaker.acquire();
      fail(breaker);
      fail(breaker);
      time.advance(RESET_TIMEOUT);
      succeed(breaker);
      fail(breaker);

      breaker.onFailure(old, new IOException("late"));

      assertEquals(CircuitState.CLOSED, breaker.state());
    }

    @Test
    void aProbeThatOutlivesAResetChangesNothing() {
      DefaultCircuitBreaker breaker = cooledDown(classic(1));
      Object probe = breaker.acquire();
      breaker.reset();

      breaker.onFailure(probe, new IOException("late probe"));

      assertEquals(CircuitState.CLOSED, breaker.state());
      assertEquals(1, events("circuit.opened").size());
    }
  }

  /** New settings keep the state, and the counts wherever the window keeps its shape. */
  @Nested
  class NewSettings {
    private static final long SLOW = Duration.ofSeconds(2).toNanos();
    private static final long QUICK = Duration.ofMillis(100).toNanos();

    private CircuitBreakerConfig.Builder slow(double slowCallRate) {
      return CircuitBreakerConfig.builder("backend")
          .slowCall("1s")
          .slowCallRate(slowCallRate)
          .minimumCalls(4)
          .window(Duration.ofSeconds(10))
          .resetTimeout(RESET_TIMEOUT);
    }

    @Test
    void aNewThresholdAppliesToTheConsecutiveFailuresAlreadyCounted() {
      DefaultCircuitBreaker breaker = breaker(classic(5));
      fail(breaker);
      fail(breaker);

      breaker.reconfigure(classic(3).window(Duration.ofSeconds(20)).build());
      fail(breaker);

      assertEquals(CircuitState.OPEN, breaker.state(),
          "3 consecutive failures, 2 of them before the switch; the window, unused in classic mode, changes nothing");
    }

    @Test
    void aNewFailureRateAppliesToTheOutcomesAlreadyInTheWindow() {
      DefaultCircuitBreaker breaker = breaker(rate(0.9, 4));
      fail(breaker);
      fail(breaker);
      succeed(breaker);

      breaker.reconfigure(rate(0.5, 4).build());
      succeed(breaker);

      assertEquals(CircuitState.OPEN, breaker.state(), "2 failures of 4 reach the new 0.5");
    }

    @Test
    void aNewSlowCallRateAppliesToTheSlowCallsAlreadyInTheWindow() {
      DefaultCircuitBreaker breaker = breaker(slow(0.9));
      breaker.onResult(breaker.acquire(), "ok", SLOW);
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      breaker.onResult(breaker.acquire(), "ok", SLOW);

      breaker.reconfigure(slow(0.5).build());
      breaker.onResult(breaker.acquire(), "ok", QUICK);

      assertEquals(CircuitState.OPEN, breaker.state(), "2 slow of 4 reach the new 0.5");
    }

    @Test
    void aSlowWindowOfAnotherSpanStartsEmpty() {
      DefaultCircuitBreaker breaker = breaker(slow(0.5));
      breaker.onResult(breaker.acquire(), "ok", SLOW);
      breaker.onResult(breaker.acquire(), "ok", QUICK);
      breaker.onResult(breaker.acquire(), "ok", SLOW);

      breaker.reconfigure(slow(0.5).window(Duration.ofSeconds(20)).build());
      breaker.onResult(breaker.acquire(), "ok", QUICK);

      assertEquals(CircuitState.CLOSED, breaker.state(), "1 call in the new window, below minimumCalls");
    }

    @Test
    void judgingSlowCallsFromNowOnStartsTheCountAgain() {
      DefaultCircuitBreaker breaker = breaker(classic(3));
      fail(breaker);
      fail(breaker);

      breaker.reconfigure(classic(3).slowCall("1s").minimumCalls(4).build());
      fail(breaker);

      assertEquals(CircuitState.CLOSED, breaker.state(), "a window of another shape: the count starts at 1");
    }

    @Test
    void newSettingsOfAnotherWindowShapeStartAClosedCircuitsWindowEmpty() {
      DefaultCircuitBreaker breaker = breaker(rate(0.5, 4));
      fail(breaker);
      fail(breaker);
      fail(breaker);

      breaker.reconfigure(rate(0.5, 4).windowCalls(10).build());
      fail(breaker);

      assertEquals(CircuitState.CLOSED, breaker.state(), "1 call in the new window, below minimumCalls");
      assertTrue(events("circuit.opened").isEmpty());
    }

    @Test
    void anOpenCircuitKeepsItsCooldownThroughAnotherWindowShape() {
      DefaultCircuitBreaker breaker = breaker(classic(1));
      fail(breaker);
      time.advance(Duration.ofSeconds(4));

      breaker.reconfigure(rate(0.5, 4).build());

      assertEquals(CircuitState.OPEN, breaker.state());
      assertEquals(Optional.of(Duration.ofSeconds(6)), breaker.retryAfter());
    }

  }

  @Nested
  class Reset {
    @Test
    void closesAnOpenCircuitAndForgetsTheCount() {
      DefaultCircuitBreaker breaker = breaker(classic(2));
      fail(breaker);
      fail(breaker);
      assertEquals(CircuitState.OPEN, breaker.state());

      breaker.reset();

      assertEquals(CircuitState.CLOSED, breaker.state());
      assertEquals(Optional.empty(), breaker.retryAfter());
      onlyEvent("circuit.closed");
      fail(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state());
    }

    @Test
    void forgetsTheCountOfAClosedCircuitWithoutAnEvent() {
      DefaultCircuitBreaker breaker = breaker(classic(2));
      fail(breaker);
      breaker.reset();
      fail(breaker);
      assertEquals(CircuitState.CLOSED, breaker.state());
      assertTrue(events("circuit.closed").isEmpty());
    }
  }

  @Nested
  class Arguments {
    @Test
    void constructorRefusesNulls() {
      CircuitBreakerConfig config = classic(1).build();
      assertThrows(NullPointerException.class, () -> new DefaultCircuitBreaker(null, time, bus));
      assertThrows(NullPointerException.class, () -> new DefaultCircuitBreaker(config, null, bus));
      assertThrows(NullPointerException.class, () -> new DefaultCircuitBreaker(config, time, null));
    }

    @Test
    void aTicketOfAnotherBreakerIsRefused() {
      DefaultCircuitBreaker one = breaker(classic(1));
      DefaultCircuitBreaker other = breaker(classic(1));
      Object ticket = one.acquire();
      assertSame(one, DefaultCircuitBreaker.ownerOf(ticket));
      assertThrows(IllegalArgumentException.class, () -> other.onSuccess(ticket));
      assertThrows(IllegalArgumentException.class, () -> DefaultCircuitBreaker.ownerOf("ticket"));
      assertThrows(IllegalArgumentException.class, () -> DefaultCircuitBreaker.ownerOf(null));
    }
  }
}
