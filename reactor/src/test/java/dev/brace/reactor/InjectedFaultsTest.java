package dev.brace.reactor;

import static dev.brace.reactor.ReactiveFixture.flux;
import static dev.brace.reactor.ReactiveFixture.mono;
import static dev.brace.reactor.ReactiveFixture.retry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitState;
import dev.brace.runtime.InjectedFaultException;
import dev.brace.runtime.TimeoutExceededException;
import dev.brace.runtime.config.ChaosConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.ResilientCall;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.subscriber.TestSubscriber;

/**
 * Fault injection set for a call reaches its {@code Mono} and {@code Flux} attempts as it reaches
 * every other form: inside every pattern, before the delegate would be called. An injected fault
 * never calls the delegate and is judged as a real failure (retried, counted by the breaker); an
 * injected latency waits on the registry's scheduler inside the attempt's timeout, then calls it.
 */
class InjectedFaultsTest {
  private static final String BREAKER = "items";

  private final AtomicInteger calls = new AtomicInteger();

  /** A registry with fault injection switched on and {@code settings} for the call's breaker. */
  private static ReactiveFixture injecting(Consumer<ChaosConfig.Builder> settings) {
    return new ReactiveFixture(registry -> registry
        .environment(Map.of("BRACE_CHAOS_ENABLED", "true"))
        .systemProperties(Map.of())
        .chaos(BREAKER, settings));
  }

  private static ResilientCall call(ReactiveFixture fixture) {
    return fixture.resolve(definition -> definition
        .with(retry())
        .with(CircuitBreakerConfig.builder(BREAKER).failureThreshold(3))
        .with(TimeoutConfig.builder(ReactiveFixture.CALL).duration("1s")));
  }

  /** No retry: the one attempt's timeout decides. */
  private static ResilientCall timedOnly(ReactiveFixture fixture) {
    return fixture.resolve(definition -> definition
        .with(CircuitBreakerConfig.builder(BREAKER))
        .with(TimeoutConfig.builder(ReactiveFixture.CALL).duration("1s")));
  }

  private Mono<String> item(ResilientCall call) {
    return mono(call, () -> Mono.just("item " + calls.incrementAndGet()));
  }

  private Flux<String> lines(ResilientCall call) {
    return flux(call, () -> Flux.just("line " + calls.incrementAndGet(), "last"));
  }

  @Test
  void anInjectedFaultReachesAMonoCallInsideTheRetryAndTheBreakerAndNeverCallsTheDelegate() {
    ReactiveFixture fixture = injecting(chaos -> chaos.faultRate(1));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    item(call(fixture)).subscribe(subscriber);

    fixture.advance(100);
    fixture.advance(100);

    Throwable failure = subscriber.expectTerminalError();
    assertInstanceOf(InjectedFaultException.class, failure);
    assertEquals(2, failure.getSuppressed().length, "each of the three attempts was retried as a real failure");
    assertEquals(0, calls.get(), "the dependency is never called");
    assertEquals(CircuitState.OPEN, fixture.registry.circuitBreaker(BREAKER).state(), "three counted failures");
    assertEquals(3, fixture.eventCount("chaos.injected"));
  }

  @Test
  void anInjectedLatencyDelaysAMonoAttemptOnTheScheduler() {
    ReactiveFixture fixture = injecting(chaos -> chaos.latency("500ms").latencyRate(1));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    item(call(fixture)).subscribe(subscriber);

    fixture.advance(499);
    assertEquals(0, calls.get(), "still waiting, and the subscribing thread was not held");
    fixture.advance(1);

    assertEquals(List.of("item 1"), subscriber.getReceivedOnNext());
    assertTrue(subscriber.isTerminatedComplete());
  }

  @Test
  void anInjectedLatencyLongerThanTheTimeoutTimesTheMonoAttemptOutWithoutCallingTheDelegate() {
    ReactiveFixture fixture = injecting(chaos -> chaos.latency("5s").latencyRate(1));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    mono(timedOnly(fixture),
        () -> Mono.just("item " + calls.incrementAndGet())).subscribe(subscriber);

    fixture.advance(1_000);
    assertInstanceOf(TimeoutExceededException.class, subscriber.expectTerminalError());
    fixture.advance(5_000);
    assertEquals(0, calls.get(), "the delayed call was given up with the attempt");
  }

  @Test
  void anInjectedFaultReachesAFluxCallBeforeItsFirstElement() {
    ReactiveFixture fixture = injecting(chaos -> chaos.faultRate(1));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    lines(call(fixture)).subscribe(subscriber);

    fixture.advance(100);
    fixture.advance(100);

    assertInstanceOf(InjectedFaultException.class, subscriber.expectTerminalError());
    assertEquals(List.of(), subscriber.getReceivedOnNext());
    assertEquals(0, calls.get());
    assertEquals(CircuitState.OPEN, fixture.registry.circuitBreaker(BREAKER).state());
    assertEquals(3, fixture.eventCount("chaos.injected"));
  }

  @Test
  void anInjectedLatencyDelaysAFluxAttemptThenItsElementsFlow() {
    ReactiveFixture fixture = injecting(chaos -> chaos.latency("500ms").latencyRate(1));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    lines(call(fixture)).subscribe(subscriber);

    fixture.advance(499);
    assertEquals(0, calls.get());
    assertFalse(subscriber.isTerminated());
    fixture.advance(1);

    assertEquals(List.of("line 1", "last"), subscriber.getReceivedOnNext());
    assertTrue(subscriber.isTerminatedComplete());
  }

  @Test
  void anInjectedLatencyLongerThanTheTimeoutTimesTheFluxAttemptOutAndNothingIsCalledLater() {
    ReactiveFixture fixture = injecting(chaos -> chaos.latency("5s").latencyRate(1));
    TestSubscriber<String> subscriber = TestSubscriber.create();
    flux(timedOnly(fixture),
        () -> Flux.just("line " + calls.incrementAndGet())).subscribe(subscriber);

    fixture.advance(1_000);
    assertInstanceOf(TimeoutExceededException.class, subscriber.expectTerminalError());
    fixture.advance(5_000);
    assertEquals(0, calls.get(), "the delayed call was given up with the attempt");
  }
}
