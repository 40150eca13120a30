package dev.brace.reactor;

import static dev.brace.reactor.ReactiveFixture.flux;
import static dev.brace.reactor.ReactiveFixture.mono;
import static dev.brace.reactor.ReactiveFixture.retry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.ResilientCall;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.publisher.TestPublisher;
import reactor.test.subscriber.TestSubscriber;

/**
 * A {@code Mono} or {@code Flux} subscribed under a caller's deadline is bound by it, as every other
 * form of call is: the attempt is cut when the deadline passes (the upstream subscription
 * cancelled), the call fails with {@code DeadlineExceededException}, nothing is retried past it and
 * no breaker counts it; a subscription past the deadline never reaches the delegate; and the
 * delegate's method runs with the attempt's own bound as the current deadline, for the calls it
 * makes.
 */
class CallerDeadlineTest {
  private static final Duration DEADLINE = Duration.ofMillis(300);

  private final ReactiveFixture fixture = new ReactiveFixture();

  private ResilientCall guarded() {
    return fixture.resolve(definition -> definition
        .with(retry().on(Exception.class))
        .with(CircuitBreakerConfig.builder("items").failureThreshold(1))
        .with(TimeoutConfig.builder(ReactiveFixture.CALL).duration("2s")));
  }

  @Test
  void aMonoUnderTheCallersDeadlineFailsWithDeadlineExceededWhenItPasses() {
    ResilientCall call = guarded();
    AtomicInteger calls = new AtomicInteger();
    TestPublisher<String> hanging = TestPublisher.create();
    TestSubscriber<String> subscriber = TestSubscriber.create();
    try (Deadline.Scope request = Deadline.open(DEADLINE, fixture.time)) {
      mono(call, () -> {
        calls.incrementAndGet();
        return hanging.mono();
      }).subscribe(subscriber);
    }

    fixture.advance(299);
    assertFalse(subscriber.isTerminated(), "the call's own timeout is 2 s; only the deadline is near");
    fixture.advance(1);

    DeadlineExceededException cut = assertInstanceOf(DeadlineExceededException.class, subscriber.expectTerminalError());
    assertEquals(DEADLINE, cut.timeout(), "it names the deadline's budget");
    assertTrue(hanging.wasCancelled(), "the request is stopped");
    fixture.advance(1_000);
    assertEquals(1, calls.get(), "no retry starts past the deadline");
    assertEquals(CircuitState.CLOSED, fixture.registry.circuitBreaker("items").state(),
        "the caller ran out of time; the dependency did not fail");
    assertEquals(1, fixture.eventCount("deadline.exceeded"));
  }

  @Test
  void aMonoSubscribedPastItsDeadlineFailsAtOnceWithoutCallingTheDelegate() {
    ResilientCall call = guarded();
    AtomicInteger calls = new AtomicInteger();
    TestSubscriber<String> subscriber = TestSubscriber.create();
    try (Deadline.Scope request = Deadline.open(DEADLINE, fixture.time)) {
      fixture.advance(300);
      mono(call, () -> Mono.just("item " + calls.incrementAndGet())).subscribe(subscriber);
    }

    assertInstanceOf(DeadlineExceededException.class, subscriber.expectTerminalError());
    assertEquals(0, calls.get());
  }

  @Test
  void aFluxUnderTheCallersDeadlineIsCutBeforeItsFirstElementAndNotCounted() {
    ResilientCall call = guarded();
    AtomicInteger calls = new AtomicInteger();
    TestPublisher<String> hanging = TestPublisher.create();
    TestSubscriber<String> subscriber = TestSubscriber.create();
    try (Deadline.Scope request = Deadline.open(DEADLINE, fixture.time)) {
      flux(call, () -> {
        calls.incrementAndGet();
        return hanging.flux();
      }).subscribe(subscriber);
    }

    fixture.advance(300);

    assertInstanceOf(DeadlineExceededException.class, subscriber.expectTerminalError());
    assertTrue(hanging.wasCancelled());
    fixture.advance(1_000);
    assertEquals(1, calls.get(), "no retry starts past the deadline");
    assertEquals(CircuitState.CLOSED, fixture.registry.circuitBreaker("items").state());
  }

  @Test
  void theDelegateRunsUnderTheAttemptsBoundWhichTheCallsItMakesInherit() {
    ResilientCall call = fixture.resolve(definition -> definition
        .with(TimeoutConfig.builder(ReactiveFixture.CALL).duration("1s")));
    List<Duration> seen = new CopyOnWriteArrayList<>();

    mono(call, () -> {
      seen.add(Deadline.current().orElseThrow().remaining());
      return Mono.just("item");
    }).block();
    flux(call, () -> {
      seen.add(Deadline.current().orElseThrow().remaining());
      return Flux.just("line");
    }).blockLast();
    try (Deadline.Scope request = Deadline.open(DEADLINE, fixture.time)) {
      mono(call, () -> {
        seen.add(Deadline.current().orElseThrow().remaining());
        return Mono.just("item");
      }).block();
    }

    assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1), DEADLINE), seen,
        "the attempt's timeout, or the caller's deadline when that is nearer");
    assertTrue(Deadline.current().isEmpty(), "nothing is left on the subscriber's thread");
  }
}
