package dev.brace.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.subscriber.TestSubscriber;

/** A {@code Stack}'s {@code Mono} and {@code Flux} forms: the stack's parts, instances and settings, per subscription. */
class ReactiveStackTest {
  private final ManualTimeSource time = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(time).build();

  @Test
  void aMonoIsRetriedThroughTheStackAndEachAttemptCallsTheSupplierAgain() {
    ReactiveStack<String> items = ReactiveStack.of(Stack.<String>builder("items")
        .retry(r -> r.maxAttempts(3).delay("100ms").multiplier(1).jitter(Retry.Jitter.NONE))
        .build(registry));
    AtomicInteger calls = new AtomicInteger();
    TestSubscriber<String> subscriber = TestSubscriber.create();

    items.mono(() -> calls.incrementAndGet() < 3 ? Mono.error(new IOException("503")) : Mono.just("ok")).subscribe(subscriber);
    time.advance(Duration.ofMillis(200));

    assertEquals(List.of("ok"), subscriber.getReceivedOnNext());
    assertEquals(3, calls.get());
  }

  @Test
  void theStacksFallbackAnswersAMonoWithItsValueAndNoneForNull() {
    Stack<String> stack = Stack.<String>builder("items")
        .fallback(failure -> failure.getMessage().equals("none") ? null : "fallback")
        .build(registry);
    ReactiveStack<String> items = ReactiveStack.of(stack);

    assertEquals("fallback", items.mono(() -> Mono.error(new IOException("down"))).block());
    TestSubscriber<String> empty = TestSubscriber.create();
    items.mono(() -> Mono.error(new IOException("none"))).subscribe(empty);
    assertTrue(empty.isTerminatedComplete());
    assertEquals(List.of(), empty.getReceivedOnNext());
  }

  @Test
  void theStacksFallbackAnswersAFluxWithItsOneValue() {
    ReactiveStack<String> feed = ReactiveStack.of(Stack.<String>builder("feed")
        .fallback(failure -> "cached")
        .build(registry));

    assertEquals(List.of("cached"), feed.flux(() -> Flux.error(new IOException("down"))).collectList().block());
  }

  @Test
  void aKeyedBreakerTakesTheKeyOfEachCallAndAMissingOneIsTheError() {
    ReactiveStack<String> tenants = ReactiveStack.of(Stack.<String>builder("tenants")
        .circuitBreaker("tenants", b -> b.key("{tenant}").failureThreshold(1))
        .build(registry));

    TestSubscriber<String> failing = TestSubscriber.create();
    tenants.mono("acme", () -> Mono.error(new IOException("down"))).subscribe(failing);
    failing.expectTerminalError();

    assertEquals(CircuitState.OPEN, registry.circuitBreaker("tenants[acme]").state());
    assertEquals("fine", tenants.flux("globex", () -> Flux.just("fine")).blockFirst(), "another key, another breaker");
    TestSubscriber<String> unkeyed = TestSubscriber.create();
    tenants.mono(() -> Mono.just("x")).subscribe(unkeyed);
    assertInstanceOf(IllegalArgumentException.class, unkeyed.expectTerminalError());
  }

  @Test
  void staleAnswersRememberAMonosValuePerKey() {
    ReactiveStack<String> prices = ReactiveStack.of(Stack.<String>builder("prices")
        .staleIfError(s -> s.maxAge("10m"))
        .build(registry));

    assertEquals("9.99", prices.mono("book", () -> Mono.just("9.99")).block());
    assertEquals("9.99", prices.mono("book", () -> Mono.error(new IOException("down"))).block(),
        "the key's remembered value answers the failure");
    TestSubscriber<String> other = TestSubscriber.create();
    prices.mono("pen", () -> Mono.error(new IOException("down"))).subscribe(other);
    assertInstanceOf(IOException.class, other.expectTerminalError(), "nothing remembered for another key");
  }

  @Test
  void aStackWithAHedgeHedgesItsMonoButRefusesItsFlux() {
    ReactiveStack<String> hedged = ReactiveStack.of(Stack.<String>builder("hedged")
        .hedge(h -> h.delay("50ms"))
        .build(registry));

    assertEquals("one", hedged.mono(() -> Mono.just("one")).block());
    TestSubscriber<String> refused = TestSubscriber.create();
    hedged.flux(() -> Flux.just("one")).subscribe(refused);
    Throwable failure = refused.expectTerminalError();
    assertInstanceOf(IllegalStateException.class, failure);
    assertEquals("hedged has a hedge, which a Flux cannot have: a stream has no one answer to hedge or remember;"
        + " use mono(() -> flux.collectList()) to treat the whole stream as one", failure.getMessage());
  }

  @Test
  void aReactiveStackSharesItsInstancesWithTheStacksOtherForms() throws Exception {
    Stack<String> stack = Stack.<String>builder("shared")
        .circuitBreaker("shared-api", b -> b.failureThreshold(2))
        .build(registry);
    ReactiveStack<String> reactive = ReactiveStack.of(stack);

    reactive.mono(() -> Mono.<String>error(new IOException("one"))).onErrorResume(e -> Mono.empty()).block();
    try {
      stack.call(() -> {
        throw new IOException("two");
      });
    } catch (IOException expected) {
      // the second failure, through the synchronous form
    }

    assertEquals(CircuitState.OPEN, registry.circuitBreaker("shared-api").state());
  }
}
