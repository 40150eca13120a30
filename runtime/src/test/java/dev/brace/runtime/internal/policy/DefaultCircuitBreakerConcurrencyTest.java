package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.event.EventBus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Event;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Races many threads, released together, against one breaker, many rounds over, and checks that
 * each transition happens, and is reported, exactly once.
 */
class DefaultCircuitBreakerConcurrencyTest {
  private static final int THREADS = 16;
  private static final int ROUNDS = 300;
  private static final Duration RESET_TIMEOUT = Duration.ofSeconds(10);
  private static final long SLOW = Duration.ofSeconds(2).toNanos();
  private static final long QUICK = Duration.ofMillis(100).toNanos();

  private final ManualTimeSource time = new ManualTimeSource();
  private final EventBus bus = new EventBus(Clock.systemUTC());
  private final AtomicInteger opened = new AtomicInteger();
  private final AtomicInteger halfOpened = new AtomicInteger();
  private final CyclicBarrier start = new CyclicBarrier(THREADS);
  private ExecutorService threads;

  @BeforeEach
  void setUp() {
    threads = Executors.newFixedThreadPool(THREADS);
    Consumer<Event> counter =
        event -> {
          if (event.kind().equals("circuit.opened")) {
            opened.incrementAndGet();
          } else if (event.kind().equals("circuit.half_open")) {
            halfOpened.incrementAndGet();
          }
        };
    bus.subscribe(counter);
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    threads.shutdownNow();
    threads.awaitTermination(10, TimeUnit.SECONDS);
  }

  private DefaultCircuitBreaker breaker(CircuitBreakerConfig.Builder config) {
    return new DefaultCircuitBreaker(config.resetTimeout(RESET_TIMEOUT).build(), time, bus);
  }

  /** Runs {@code task} on every thread at once and returns what each returned. */
  private <T> List<T> race(Callable<T> task) throws Exception {
    List<Future<T>> futures = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      futures.add(
          threads.submit(
              () -> {
                start.await(10, TimeUnit.SECONDS);
                return task.call();
              }));
    }
    List<T> results = new ArrayList<>();
    for (Future<T> future : futures) {
      results.add(future.get(10, TimeUnit.SECONDS));
    }
    return results;
  }

  /** @return the tickets of the admitted calls; refused calls leave nothing */
  private List<Object> raceToAcquire(DefaultCircuitBreaker breaker) throws Exception {
    List<Object> admitted = new ArrayList<>();
    for (Object ticket :
        race(
            () -> {
              try {
                return breaker.acquire();
              } catch (CircuitOpenException refused) {
                return null;
              }
            })) {
      if (ticket != null) {
        admitted.add(ticket);
      }
    }
    return admitted;
  }

  @Test
  void theFirstCallsAfterTheCooldownAdmitExactlyOneProbe() throws Exception {
    DefaultCircuitBreaker breaker = breaker(CircuitBreakerConfig.builder("race").failureThreshold(1));
    breaker.onFailure(breaker.acquire(), new IOException("down"));

    for (int round = 1; round <= ROUNDS; round++) {
      time.advance(RESET_TIMEOUT);
      List<Object> probes = raceToAcquire(breaker);

      assertEquals(1, probes.size(), "round " + round);
      assertEquals(round, halfOpened.get(), "round " + round);
      breaker.onFailure(probes.get(0), new IOException("still down"));
      assertEquals(CircuitState.OPEN, breaker.state());
    }
  }

  @Test
  void aFreedProbeSlotIsTakenByExactlyOneCall() throws Exception {
    DefaultCircuitBreaker breaker =
        breaker(CircuitBreakerConfig.builder("race").failureThreshold(1).successThreshold(ROUNDS + 1));
    breaker.onFailure(breaker.acquire(), new IOException("down"));
    time.advance(RESET_TIMEOUT);
    Object probe = breaker.acquire();

    for (int round = 1; round <= ROUNDS; round++) {
      // Alternate the two ways a probe frees its slot without deciding anything.
      if (round % 2 == 0) {
        breaker.release(probe);
      } else {
        breaker.onSuccess(probe);
      }
      List<Object> probes = raceToAcquire(breaker);

      assertEquals(1, probes.size(), "round " + round);
      probe = probes.get(0);
    }
    assertEquals(CircuitState.HALF_OPEN, breaker.state());
  }

  @Test
  void simultaneousFailuresOpenAClassicCircuitOnce() throws Exception {
    DefaultCircuitBreaker breaker = breaker(CircuitBreakerConfig.builder("race").failureThreshold(5));
    failTogether(breaker);
  }

  @Test
  void simultaneousFailuresOpenARateCircuitOnce() throws Exception {
    DefaultCircuitBreaker breaker =
        breaker(CircuitBreakerConfig.builder("race").failureRate(0.5).minimumCalls(5).windowCalls(THREADS));
    failTogether(breaker);
  }

  @Test
  void simultaneousFailuresOpenAStripedTimeWindowCircuitOnce() throws Exception {
    DefaultCircuitBreaker breaker =
        breaker(CircuitBreakerConfig.builder("race").failureRate(0.5).minimumCalls(5).window("10s"));
    failTogether(breaker);
  }

  @Test
  void successesRacingOneFailureNeverOpenBelowTheRate() throws Exception {
    // 15 successes and 1 failure land together each round: 1/16 is far below 50%, whatever the
    // order, so no sum (however it interleaves with the recording threads) may open it.
    DefaultCircuitBreaker breaker =
        breaker(CircuitBreakerConfig.builder("race").failureRate(0.5).minimumCalls(5).window("10s"));
    outcomesTogether(breaker, thread -> thread == 0, CircuitState.CLOSED);
    assertEquals(0, opened.get());
  }

  @Test
  void simultaneousSlowCallsOpenAStripedTimeWindowCircuitOnce() throws Exception {
    // Every outcome a success, every one slow: only the slow window, striped too, can open it.
    DefaultCircuitBreaker breaker = breaker(slowCalls());
    outcomesTogether(breaker, (ticket, thread) -> breaker.onResult(ticket, "ok", SLOW), CircuitState.OPEN);
  }

  @Test
  void quickCallsRacingOneSlowCallNeverOpenBelowTheSlowRate() throws Exception {
    // 1 slow call of 16 each round, far below 50%: a quick call that skips the sum (no slow one in
    // the window yet) and one that adds it up while the slow one is being recorded both see less
    // than the rate.
    DefaultCircuitBreaker breaker = breaker(slowCalls());
    outcomesTogether(
        breaker,
        (ticket, thread) -> breaker.onResult(ticket, "ok", thread == 0 ? SLOW : QUICK),
        CircuitState.CLOSED);
    assertEquals(0, opened.get());
  }

  /** A breaker that judges latency alone, on a striped time window. */
  private static CircuitBreakerConfig.Builder slowCalls() {
    return CircuitBreakerConfig.builder("race").slowCall("1s").slowCallRate(0.5).minimumCalls(5).window("10s");
  }

  private void failTogether(DefaultCircuitBreaker breaker) throws Exception {
    outcomesTogether(breaker, thread -> true, CircuitState.OPEN);
  }

  /** Rounds in which every thread's call is admitted while CLOSED, then all outcomes land together. */
  private void outcomesTogether(DefaultCircuitBreaker breaker, IntPredicate fails, CircuitState expected) throws Exception {
    outcomesTogether(
        breaker,
        (ticket, thread) -> {
          if (fails.test(thread)) {
            breaker.onFailure(ticket, new IOException("down"));
          } else {
            breaker.onSuccess(ticket);
          }
        },
        expected);
  }

  /** Rounds as above; {@code outcome} records each thread's outcome with its ticket and number. */
  private void outcomesTogether(
      DefaultCircuitBreaker breaker, BiConsumer<Object, Integer> outcome, CircuitState expected) throws Exception {
    for (int round = 1; round <= ROUNDS; round++) {
      List<Object> tickets = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        tickets.add(breaker.acquire());
      }
      AtomicInteger next = new AtomicInteger();
      race(
          () -> {
            int mine = next.getAndIncrement();
            outcome.accept(tickets.get(mine), mine);
            return null;
          });

      assertEquals(expected, breaker.state(), "round " + round);
      if (expected == CircuitState.OPEN) {
        assertEquals(round, opened.get(), "round " + round);
      }
      breaker.reset();
    }
  }

  @Test
  void acquireWhileClosedAlwaysAdmits() throws Exception {
    DefaultCircuitBreaker breaker = breaker(CircuitBreakerConfig.builder("race"));
    for (Object ticket : race(breaker::acquire)) {
      assertNotNull(Objects.requireNonNull(ticket));
    }
  }
}
