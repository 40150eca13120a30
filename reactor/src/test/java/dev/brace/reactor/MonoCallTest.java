package dev.brace.reactor;

import static dev.brace.reactor.ReactiveFixture.mono;
import static dev.brace.reactor.ReactiveFixture.retry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.publisher.TestPublisher;
import reactor.test.subscriber.TestSubscriber;
import reactor.util.context.Context;

/**
 * A wrapper's {@code Mono}: built lazily, one call per subscription, each attempt a new delegate
 * call subscribed with the subscriber's Context, waits on the registry's (manual) scheduler, and a
 * cancel that gives everything back.
 */
class MonoCallTest {
  private final ReactiveFixture fixture = new ReactiveFixture();

  @Test
  void callingTheWrapperOnlyBuildsTheMonoAndEachSubscriptionIsOneCall() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    AtomicInteger calls = new AtomicInteger();
    Mono<String> item = mono(call, () -> Mono.just("item " + calls.incrementAndGet()));

    assertEquals(0, calls.get(), "nothing reaches the delegate before a subscription");
    assertEquals("item 1", item.block());
    assertEquals("item 2", item.block());
    assertEquals(2, calls.get());
  }

  @Test
  void eachAttemptCallsTheDelegateAgainAndTheBackoffWaitsOnTheScheduler() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    List<TestPublisher<String>> attempts = new ArrayList<>();
    Mono<String> item = mono(call, () -> {
      TestPublisher<String> attempt = TestPublisher.create();
      attempts.add(attempt);
      return attempt.mono();
    });

    TestSubscriber<String> subscriber = TestSubscriber.create();
    item.subscribe(subscriber);
    attempts.get(0).error(new IOException("503"));
    assertEquals(1, attempts.size(), "the backoff has not passed: the subscribing thread was not held");

    fixture.advance(100);
    assertEquals(2, attempts.size());
    attempts.get(1).emit("ok");

    assertEquals(List.of("ok"), subscriber.getReceivedOnNext());
    assertTrue(subscriber.isTerminatedComplete());
    assertEquals(1, fixture.eventCount("retry.attempt_failed"));
  }

  @Test
  void exhaustedRetriesEndWithTheLastFailureCarryingTheEarlierOnes() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    AtomicInteger calls = new AtomicInteger();
    TestSubscriber<String> subscriber = TestSubscriber.create();
    mono(call, () -> Mono.<String>error(new IOException("503 #" + calls.incrementAndGet()))).subscribe(subscriber);

    fixture.advance(100);
    fixture.advance(100);

    Throwable failure = subscriber.expectTerminalError();
    assertEquals("503 #3", failure.getMessage());
    assertEquals(2, failure.getSuppressed().length);
  }

  @Test
  void aTimeoutCancelsTheUpstreamSubscriptionAndSignalsTimeoutExceeded() {
    ResilientCall call = fixture.resolve(definition -> definition.with(TimeoutConfig.builder(ReactiveFixture.CALL).duration("1s")));
    TestPublisher<String> slow = TestPublisher.create();
    TestSubscriber<String> subscriber = TestSubscriber.create();
    mono(call, slow::mono).subscribe(subscriber);

    fixture.advance(999);
    assertFalse(subscriber.isTerminated());
    fixture.advance(1);

    assertInstanceOf(TimeoutExceededException.class, subscriber.expectTerminalError());
    assertTrue(slow.wasCancelled(), "the request is stopped, not left running");
  }

  @Test
  void aSubscriberThatCancelsGivesBackThePermitAndTheBreakersTicketWithoutAnOutcome() {
    ResilientCall call = fixture.resolve(definition -> definition
        .with(CircuitBreakerConfig.builder("items").failureThreshold(1))
        .with(BulkheadConfig.builder("items").maxConcurrent(1)));
    TestPublisher<String> hanging = TestPublisher.create();
    TestSubscriber<String> subscriber = TestSubscriber.create();
    mono(call, hanging::mono).subscribe(subscriber);
    assertEquals(1, fixture.registry.bulkhead("items").inFlight());

    subscriber.cancel();

    assertTrue(hanging.wasCancelled());
    assertEquals(0, fixture.registry.bulkhead("items").inFlight());
    assertEquals(CircuitState.CLOSED, fixture.registry.circuitBreaker("items").state(), "a cancel is no failure");
    assertEquals("again", mono(call, () -> Mono.just("again")).block(), "the permit is free for the next call");
    assertEquals(0, fixture.eventCount("call.failed"));
  }

  @Test
  void aCancelDuringTheBackoffStopsTheCallThere() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    AtomicInteger calls = new AtomicInteger();
    TestSubscriber<String> subscriber = TestSubscriber.create();
    mono(call, () -> {
      calls.incrementAndGet();
      return Mono.<String>error(new IOException("503"));
    }).subscribe(subscriber);

    subscriber.cancel();
    fixture.advance(1000);

    assertEquals(1, calls.get(), "no attempt after the cancel");
    assertFalse(subscriber.isTerminated());
  }

  @Test
  void aCancelWhileWaitingForATokenGivesTheReservationBack() {
    ResilientCall call = fixture.resolve(definition -> definition
        .with(RateLimitConfig.builder("items").permits(1).per("1s").maxWait("2s")));
    assertEquals("first", mono(call, () -> Mono.just("first")).block());
    TestSubscriber<String> waiting = TestSubscriber.create();
    AtomicInteger calls = new AtomicInteger();
    mono(call, () -> {
      calls.incrementAndGet();
      return Mono.just("second");
    }).subscribe(waiting);
    assertFalse(waiting.isTerminated(), "the token is a second away: the subscription waits without a thread");

    waiting.cancel();
    fixture.advance(1000);

    assertEquals(0, calls.get());
    assertEquals(1, fixture.registry.rateLimiter("items").availablePermits(), "the reserved token came back");
  }

  @Test
  void aFullBulkheadRefusesAndTheRefusalIsTheMonosError() {
    ResilientCall call = fixture.resolve(definition -> definition.with(BulkheadConfig.builder("items").maxConcurrent(1)));
    mono(call, () -> TestPublisher.<String>create().mono()).subscribe(TestSubscriber.create());

    TestSubscriber<String> refused = TestSubscriber.create();
    mono(call, () -> Mono.just("never")).subscribe(refused);

    assertInstanceOf(BulkheadFullException.class, refused.expectTerminalError());
  }

  @Test
  void aFallbackAnswersWithItsMono() {
    ResilientCall call = fixture.resolve(definition -> definition.with(FallbackConfig.builder(ReactiveFixture.CALL)));
    IOException down = new IOException("down");
    List<Throwable> answered = new ArrayList<>();

    String value = mono(call, () -> Mono.<String>error(down), failure -> {
      answered.add(failure);
      return Mono.just("fallback");
    }).block();

    assertEquals("fallback", value);
    assertEquals(List.of(down), answered);
  }

  @Test
  void aFallbackThatFailsSignalsItsFailureWithTheOriginalAttached() {
    ResilientCall call = fixture.resolve(definition -> definition.with(FallbackConfig.builder(ReactiveFixture.CALL)));
    IOException down = new IOException("down");
    IllegalStateException broken = new IllegalStateException("fallback broken");
    TestSubscriber<String> subscriber = TestSubscriber.create();

    mono(call, () -> Mono.<String>error(down), failure -> Mono.error(broken)).subscribe(subscriber);

    assertSame(broken, subscriber.expectTerminalError());
    assertEquals(List.of(down), List.of(broken.getSuppressed()));
  }

  @Test
  void anEmptyMonoIsAnAnswerWithoutAValue() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    TestSubscriber<String> subscriber = TestSubscriber.create();

    mono(call, Mono::<String>empty).subscribe(subscriber);

    assertTrue(subscriber.isTerminatedComplete());
    assertEquals(List.of(), subscriber.getReceivedOnNext());
  }

  @Test
  void theSubscribersContextReachesEveryAttemptsMono() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));
    List<String> seen = new ArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    TestSubscriber<String> subscriber = TestSubscriber.builder().contextPut("tenant", "acme").build();
    mono(call, () -> Mono.deferContextual(context -> {
      seen.add(context.get("tenant"));
      return calls.incrementAndGet() == 1 ? Mono.error(new IOException("503")) : Mono.just("ok");
    })).subscribe(subscriber);

    fixture.advance(100);

    assertEquals(List.of("ok"), subscriber.getReceivedOnNext());
    assertEquals(List.of("acme", "acme"), seen, "the retry, on the scheduler's thread, subscribes with the same Context");
  }

  @Test
  void theContextWrittenDownstreamIsPassedThroughUntouched() {
    ResilientCall call = fixture.resolve(definition -> definition.with(retry()));

    Map<Object, Object> seen = mono(call, () -> Mono.deferContextual(context -> Mono.just(
            context.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)))))
        .contextWrite(Context.of("a", 1, "b", 2))
        .block();

    assertEquals(Map.of("a", 1, "b", 2), seen, "nothing added, nothing removed");
  }

  @Test
  void aHedgeStartsASecondAttemptAndCancelsTheLoser() {
    ResilientCall call = fixture.resolve(definition -> definition.with(HedgeConfig.builder(ReactiveFixture.CALL).delay("50ms")));
    List<TestPublisher<String>> attempts = new ArrayList<>();
    TestSubscriber<String> subscriber = TestSubscriber.create();
    mono(call, () -> {
      TestPublisher<String> attempt = TestPublisher.create();
      attempts.add(attempt);
      return attempt.mono();
    }).subscribe(subscriber);

    fixture.advance(50);
    assertEquals(2, attempts.size());
    attempts.get(1).emit("second");

    assertEquals(List.of("second"), subscriber.getReceivedOnNext());
    assertTrue(attempts.get(0).wasCancelled(), "the slower attempt's request is cancelled");
  }

  @Test
  void aNullMonoFromTheDelegateIsAFailedAttemptThatNamesTheCall() {
    ResilientCall call = fixture.resolve(definition -> definition.with(CircuitBreakerConfig.builder("items")));
    TestSubscriber<String> subscriber = TestSubscriber.create();

    ReactiveFixture.<String>mono(call, () -> null).subscribe(subscriber);

    Throwable failure = subscriber.expectTerminalError();
    assertInstanceOf(NullPointerException.class, failure);
    assertEquals("Items.item returned null instead of a Mono", failure.getMessage());
  }
}
