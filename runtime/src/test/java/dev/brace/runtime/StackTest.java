package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StackTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();

  @Test
  void partsWrittenInAnyOrderRunInTheOneOrder() throws Exception {
    AtomicInteger reached = new AtomicInteger();
    // Written innermost-first: breaker before retry. The retry must still sit outside the breaker,
    // so the breaker's refusal of attempt 2 ends the call instead of being retried.
    Stack<String> stack = Stack.<String>builder("stack.order")
        .circuitBreaker("stack-api", b -> b.failureThreshold(1))
        .retry(r -> r.maxAttempts(3).delay("10ms").jitter(Retry.Jitter.NONE))
        .build(registry);

    IOException down = new IOException("down");
    CircuitOpenException refused = assertThrows(CircuitOpenException.class, () -> stack.call(() -> {
      reached.incrementAndGet();
      throw down;
    }));

    assertEquals(1, reached.get());
    assertSame(down, refused.getSuppressed()[0]);
  }

  @Test
  void checkedExceptionsArriveAsThemselvesAndFallbacksAnswer() throws Exception {
    Stack<String> plain = Stack.<String>builder("stack.plain").retry(r -> r.maxAttempts(2).delay("1ms")).build(registry);
    IOException failure = new IOException("x");
    assertSame(failure, assertThrows(IOException.class, () -> plain.call(() -> {
      throw failure;
    })));

    Stack<String> withFallback = Stack.<String>builder("stack.fallback")
        .fallback(f -> f.on(IOException.class), cause -> "fallback:" + cause.getMessage())
        .build(registry);
    assertEquals("fallback:x", withFallback.call(() -> {
      throw failure;
    }));
  }

  @Test
  void aStackAndAnotherSiteNamingTheSameBreakerShareItsState() throws Exception {
    Stack<String> first = Stack.<String>builder("stack.first").circuitBreaker("shared", b -> b.failureThreshold(2)).build(registry);
    Stack<String> second = Stack.<String>builder("stack.second").circuitBreaker("shared", b -> b.failureThreshold(2)).build(registry);

    for (int i = 0; i < 2; i++) {
      assertThrows(IOException.class, () -> first.call(() -> {
        throw new IOException("down");
      }));
    }

    assertThrows(CircuitOpenException.class, () -> second.call(() -> "never"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("shared").state());
  }

  @Test
  void callAsyncRetriesOnTheSchedulerAndFallsBack() throws Exception {
    AtomicInteger reached = new AtomicInteger();
    Stack<String> stack = Stack.<String>builder("stack.async")
        .retry(r -> r.maxAttempts(2).delay("1s").jitter(Retry.Jitter.NONE))
        .fallback(cause -> "fallback")
        .build(registry);

    CompletableFuture<String> result = stack.callAsync(() -> {
      reached.incrementAndGet();
      return CompletableFuture.failedFuture(new IOException("down"));
    });

    assertEquals(1, reached.get(), "the backoff is a scheduled task, not a sleep");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(2, reached.get());
    assertEquals("fallback", result.get());
  }

  @Test
  void callAsyncSurfacesTheRealCause() {
    Stack<String> stack = Stack.<String>builder("stack.cause").retry(r -> r.maxAttempts(1)).build(registry);
    IOException failure = new IOException("down");

    ExecutionException thrown = assertThrows(ExecutionException.class,
        () -> stack.callAsync(() -> CompletableFuture.failedFuture(failure)).get());

    assertSame(failure, thrown.getCause());
  }

  @Test
  void anEmptyStackAndTwoPartsOfOneKindAreRefused() {
    IllegalStateException empty = assertThrows(IllegalStateException.class,
        () -> Stack.<String>builder("stack.empty").build(registry));
    assertTrue(empty.getMessage().contains("no part"), empty.getMessage());

    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> Stack.<String>builder("stack.twice")
        .retry(r -> r.maxAttempts(2))
        .retry(r -> r.maxAttempts(3)));
    assertTrue(twice.getMessage().contains("stack.twice"), twice.getMessage());
    assertThrows(NullPointerException.class, () -> Stack.<String>builder("s").retry(null));
  }

  @Test
  void aKeyedStackKeepsOneBreakerPerKeyAndRefusesACallWithoutKey() throws Exception {
    Stack<String> stack = Stack.<String>builder("stack.keyed")
        .circuitBreaker("per-tenant", b -> b.failureThreshold(1).key("{tenant}"))
        .build(registry);
    assertThrows(IOException.class, () -> stack.call("a", () -> {
      throw new IOException("down");
    }));
    assertThrows(CircuitOpenException.class, () -> stack.call("a", () -> "never"));
    assertEquals("ok", stack.call("b", () -> "ok"));
    assertEquals(CircuitState.OPEN, registry.circuitBreaker("per-tenant[a]").state());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("per-tenant[b]").state());
    assertThrows(IllegalArgumentException.class, () -> stack.call(() -> "no key"));
    ExecutionException async = assertThrows(ExecutionException.class, () -> stack.callAsync(() -> CompletableFuture.completedFuture("no key")).get());
    assertTrue(async.getCause() instanceof IllegalArgumentException);
    assertEquals("ok", stack.callAsync("b", () -> CompletableFuture.completedFuture("ok")).get());
  }
}
