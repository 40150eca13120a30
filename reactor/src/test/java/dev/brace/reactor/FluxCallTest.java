package dev.brace.reactor;

import static dev.brace.reactor.ReactiveFixture.flux;
import static dev.brace.reactor.ReactiveFixture.retry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.publisher.TestPublisher;
import reactor.test.subscriber.TestSubscriber;

/**
 * A wrapper's {@code Flux}: the permit held from subscription to the terminal signal or the
 * cancel, the timeout bounding the time to the first element, the retry and the fallback answering
 * only failures before it, demand carried across attempts.
 */
class FluxCallTest {
  private final ReactiveFixture fixture = new ReactiveFixture();
  private final List<TestPublisher<String>> attempts = new ArrayList<>();

  /** Each attempt a fresh publisher the test drives. */
  private Flux<String> driven(ResilientCall call) {
    return flux(call, this::nextAttempt);
  }

  private Flux<String> nextAttempt() {
    TestPublisher<String> attempt = TestPublisher.create();
    attempts.add(attempt);
    return attempt.flux();
  }

  @Test
  void callingTheWrapperOnlyBuildsTheFluxAndEachSubscriptionIsOneCall() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    AtomicInteger calls = new AtomicInteger();
    Flux<String> entries = flux(call, () -> Flux.just("call " + calls.incrementAndGet(), "more"));

    assertEquals(0, calls.get());
    assertEquals(List.of("call 1", "more"), entries.collectList().block());
    assertEquals(List.of("call 2", "more"), entries.collectList().block());
  }

  @Test
  void theBulkheadsPermitIsHeldFromSubscriptionToTheTerminalSignal() {
    ResilientCall call = fixture.resolve(definition -> definition.with(BulkheadConfig.builder("feed").maxConcurrent(1)));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    driven(call).subscribe(subscriber);

    attempts.get(0).next("a", "b");
    assertEquals(1, fixture.registry.bulkhead("feed").inFlight(), "still streaming");
    TestSubscriber<String> second = TestSubscriber.create();
    flux(call, () -> Flux.just("x")).subscribe(second);
    assertInstanceOf(BulkheadFullException.class, second.expectTerminalError());

    attempts.get(0).complete();

    assertEquals(List.of("a", "b"), subscriber.getReceivedOnNext());
    assertTrue(subscriber.isTerminatedComplete());
    assertEquals(0, fixture.registry.bulkhead("feed").inFlight());
  }

  @Test
  void aCancelMidStreamGivesThePermitBackAndIsNoOutcomeForTheBreaker() {
    ResilientCall call = fixture.resolve(definition -> definition
        .with(CircuitBreakerConfig.builder("feed").failureThreshold(1))
        .with(BulkheadConfig.builder("feed").maxConcurrent(1)));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    driven(call).subscribe(subscriber);
    attempts.get(0).next("a");

    subscriber.cancel();

    assertTrue(attempts.get(0).wasCancelled());
    assertEquals(0, fixture.registry.bulkhead("feed").inFlight());
    assertEquals(CircuitState.CLOSED, fixture.registry.circuitBreaker("feed").state());
    assertEquals(0, fixture.eventCount("call.succeeded") + fixture.eventCount("call.failed"));
  }

  @Test
  void aFailureBeforeTheFirstElementIsRetriedWithANewDelegateCall() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    driven(call).subscribe(subscriber);

    attempts.get(0).error(new IOException("503"));
    fixture.advance(100);
    attempts.get(1).next("a").complete();

    assertEquals(2, attempts.size());
    assertEquals(List.of("a"), subscriber.getReceivedOnNext());
    assertTrue(subscriber.isTerminatedComplete());
  }

  @Test
  void aFailureAfterAnElementIsPassedOnNotRetriedAndCountedByTheBreaker() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry())
        .with(CircuitBreakerConfig.builder("feed").failureThreshold(1)));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    driven(call).subscribe(subscriber);
    IOException broken = new IOException("connection reset");

    attempts.get(0).next("a").error(broken);
    fixture.advance(1000);

    assertEquals(1, attempts.size(), "an element was out: resubscribing would repeat it");
    assertEquals(List.of("a"), subscriber.getReceivedOnNext());
    assertSame(broken, subscriber.expectTerminalError());
    assertEquals(CircuitState.OPEN, fixture.registry.circuitBreaker("feed").state());
    TestSubscriber<String> refused = TestSubscriber.create();
    driven(call).subscribe(refused);
    assertInstanceOf(CircuitOpenException.class, refused.expectTerminalError());
  }

  @Test
  void theTimeoutBoundsTheTimeToTheFirstElementOnly() {
    ResilientCall call = fixture.resolve(definition -> definition.with(TimeoutConfig.builder(ReactiveFixture.CALL).duration("100ms")));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    driven(call).subscribe(subscriber);

    fixture.advance(90);
    attempts.get(0).next("first");
    fixture.advance(500);
    attempts.get(0).next("late but fine").complete();

    assertEquals(List.of("first", "late but fine"), subscriber.getReceivedOnNext());
    assertTrue(subscriber.isTerminatedComplete());
  }

  @Test
  void noElementWithinTheTimeoutCancelsTheAttemptAndTheRetryResubscribes() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry())
        .with(TimeoutConfig.builder(ReactiveFixture.CALL).duration("100ms")));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    driven(call).subscribe(subscriber);

    fixture.advance(100);
    assertTrue(attempts.get(0).wasCancelled());
    attempts.get(0).next("too late");
    fixture.advance(100);
    attempts.get(1).next("b").complete();

    assertEquals(List.of("b"), subscriber.getReceivedOnNext(), "the timed-out attempt's late element is dropped");
    assertEquals(1, fixture.eventCount("timeout.exceeded"));
  }

  @Test
  void aTimeoutWithoutRetrySignalsTimeoutExceeded() {
    ResilientCall call = fixture.resolve(definition -> definition.with(TimeoutConfig.builder(ReactiveFixture.CALL).duration("100ms")));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    driven(call).subscribe(subscriber);

    fixture.advance(100);

    assertInstanceOf(TimeoutExceededException.class, subscriber.expectTerminalError());
  }

  @Test
  void theFallbackAnswersAFailureBeforeTheFirstElementWithItsPublisher() {
    ResilientCall call = fixture.resolve(definition -> definition.with(FallbackConfig.builder(ReactiveFixture.CALL)));
    IOException down = new IOException("down");
    List<Throwable> answered = new ArrayList<>();

    List<String> entries = flux(call, () -> Flux.<String>error(down), failure -> {
      answered.add(failure);
      return Mono.just("cached");
    }).collectList().block();

    assertEquals(List.of("cached"), entries);
    assertEquals(List.of(down), answered);
  }

  @Test
  void theFallbackLeavesAFailureAfterAnElementAlone() {
    ResilientCall call = fixture.resolve(definition -> definition.with(FallbackConfig.builder(ReactiveFixture.CALL)));
    IOException broken = new IOException("reset");
    TestSubscriber<String> subscriber = TestSubscriber.create();

    flux(call, () -> Flux.just("a").concatWith(Flux.error(broken)), failure -> Flux.just("fallback")).subscribe(subscriber);

    assertEquals(List.of("a"), subscriber.getReceivedOnNext());
    assertSame(broken, subscriber.expectTerminalError());
    assertEquals(0, fixture.eventCount("fallback.used"));
  }

  @Test
  void demandIsPassedOnAsAskedAndCarriedToTheNextAttempt() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    TestSubscriber<String> subscriber = TestSubscriber.builder().initialRequest(2).build();
    driven(call).subscribe(subscriber);
    attempts.get(0).assertMinRequested(2).assertMaxRequested(2);

    attempts.get(0).error(new IOException("503"));
    subscriber.request(3);
    fixture.advance(100);

    attempts.get(1).assertMinRequested(5).assertMaxRequested(5);
    attempts.get(1).next("a", "b");
    subscriber.request(1);
    attempts.get(1).assertMinRequested(4);
  }

  @Test
  void aLimiterWaitRunsOnTheSchedulerAndTheAttemptStartsWhenTheTokenComes() {
    ResilientCall call = fixture.resolve(definition -> definition
        .with(RateLimitConfig.builder("feed").permits(1).per("1s").maxWait("2s")));
    assertEquals(List.of("first"), flux(call, () -> Flux.just("first")).collectList().block());
    TestSubscriber<String> subscriber = TestSubscriber.create();
    flux(call, () -> Flux.just("second")).subscribe(subscriber);
    assertFalse(subscriber.isTerminated());

    fixture.advance(1000);

    assertEquals(List.of("second"), subscriber.getReceivedOnNext());
  }

  @Test
  void theSubscribersContextReachesTheDelegatesFlux() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    TestSubscriber<String> subscriber = TestSubscriber.builder().contextPut("tenant", "acme").build();

    flux(call, () -> Flux.deferContextual(context -> Flux.just(context.<String>get("tenant")))).subscribe(subscriber);

    assertEquals(List.of("acme"), subscriber.getReceivedOnNext());
  }

  @Test
  void aNullFluxFromTheDelegateIsAFailedAttemptThatNamesTheCall() {
    ResilientCall call = fixture.resolve(definition -> definition.with(CircuitBreakerConfig.builder("feed")));
    TestSubscriber<String> subscriber = TestSubscriber.create();

    ReactiveFixture.<String>flux(call, () -> null).subscribe(subscriber);

    assertEquals("Items.item returned null instead of a Flux", subscriber.expectTerminalError().getMessage());
  }

  @Test
  void aCancelWhileAdmissionWaitsGivesTheReservationBack() {
    ResilientCall call = fixture.resolve(definition -> definition
        .with(RateLimitConfig.builder("feed").permits(1).per("1s").maxWait("2s")));
    flux(call, () -> Flux.just("first")).blockLast();
    AtomicInteger calls = new AtomicInteger();
    TestSubscriber<String> waiting = TestSubscriber.create();
    flux(call, () -> {
      calls.incrementAndGet();
      return Flux.just("second");
    }).subscribe(waiting);

    waiting.cancel();
    fixture.advance(1000);

    assertEquals(0, calls.get());
    assertEquals(1, fixture.registry.rateLimiter("feed").availablePermits());
  }
}
