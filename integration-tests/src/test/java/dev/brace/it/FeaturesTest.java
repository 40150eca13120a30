package dev.brace.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Keyed instances, retry budgets, CompletionStage returns and Stack sharing, through generated wrappers. */
class FeaturesTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).build();

  @Test
  void keyedBreakersAndLimitersSeparateHostsAndUsers() throws IOException {
    Features.Keyed keyed = ResilientFeatures_Keyed.wrap((request, user) -> {
      if (request.host().equals("down.example")) {
        throw new IOException("down");
      }
      return request.host() + request.path();
    }, registry);

    assertThrows(IOException.class, () -> keyed.fetch(new Features.Request("down.example", "/a"), "u1"));
    assertThrows(CircuitOpenException.class, () -> keyed.fetch(new Features.Request("down.example", "/b"), "u2"));
    assertEquals("up.example/c", keyed.fetch(new Features.Request("up.example", "/c"), "u2"));
    assertEquals("up.example/d", keyed.fetch(new Features.Request("up.example", "/d"), "u2"),
        "the call the open circuit refused took no token: the breaker comes before the limiter");
    assertThrows(RateLimitedException.class, () -> keyed.fetch(new Features.Request("up.example", "/e"), "u2"));
    assertEquals("up.example/f", keyed.fetch(new Features.Request("up.example", "/f"), "u3"), "u3 has its own bucket");

    assertEquals(CircuitState.OPEN, registry.circuitBreaker("per-host[down.example]").state());
    assertEquals(CircuitState.CLOSED, registry.circuitBreaker("per-host[up.example]").state());
  }

  @Test
  void aNullKeyPartIsReportedAtOnceNamingIt() {
    AtomicInteger calls = new AtomicInteger();
    Features.Keyed keyed = ResilientFeatures_Keyed.wrap((request, user) -> {
      calls.incrementAndGet();
      return "never";
    }, registry);

    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> keyed.fetch(null, "u"));
    assertTrue(refused.getMessage().contains("{request}"), refused.getMessage());
    refused = assertThrows(IllegalArgumentException.class, () -> keyed.fetch(new Features.Request(null, "/"), "u"));
    assertTrue(refused.getMessage().contains("{request.host}"), refused.getMessage());
    assertEquals(0, calls.get());
  }

  @Test
  void aRetryBudgetSharedByName() {
    Registry budgeted = Registry.builder().timeSource(clock)
        .retryBudget("shared-budget", b -> b.percentCanRetry(0).minRetriesPerSecond(0.3)).build();
    AtomicInteger calls = new AtomicInteger();
    Features.Budgeted client = ResilientFeatures_Budgeted.wrap(() -> {
      calls.incrementAndGet();
      throw new IOException("down");
    }, budgeted);

    assertThrows(IOException.class, client::call);
    assertEquals(4, calls.get(), "0.3 retries per second over 10 s: three retries, then the budget is empty");
    calls.set(0);
    assertThrows(IOException.class, client::call);
    assertEquals(1, calls.get(), "no retry left");
    assertTrue(budgeted.names().get("retrybudget").contains("shared-budget"));
  }

  @Test
  void aCompletionStageMethodRetriesOnTheSchedulerAndFallsBack() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    Features.Staged staged = ResilientFeatures_Staged.wrap(id -> {
      int n = calls.incrementAndGet();
      if (n == 1) {
        return CompletableFuture.failedFuture(new IOException("blip"));
      }
      if (id.equals("bad")) {
        throw new IllegalStateException("thrown before a future existed");
      }
      return CompletableFuture.completedFuture("ok:" + id + ":" + n);
    }, registry);

    CompletionStage<String> result = staged.load("x");
    assertEquals(1, calls.get());
    clock.advance(Duration.ofMillis(100));
    assertEquals("ok:x:2", result.toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS));

    CompletableFuture<String> bad = staged.load("bad").toCompletableFuture();
    clock.advance(Duration.ofMillis(100));
    clock.advance(Duration.ofMillis(200));
    assertEquals("fallback:bad", bad.get(10, java.util.concurrent.TimeUnit.SECONDS),
        "a synchronous throw is a failed attempt: retried like any, then answered by the fallback");
    assertEquals(5, calls.get());
  }

  @Test
  void aCompletionStageMethodTimesOutAndCancelsTheInnerFuture() {
    CompletableFuture<String> inner = new CompletableFuture<>();
    Features.Staged staged = ResilientFeatures_Staged.wrap(id -> inner, Registry.builder().timeSource(clock)
        .retry("Features.Staged.load", r -> r.maxAttempts(1)).build());

    CompletableFuture<String> result = staged.load("x").toCompletableFuture();
    clock.advance(Duration.ofSeconds(1));

    ExecutionException failed = assertThrows(ExecutionException.class, () -> result.get(10, java.util.concurrent.TimeUnit.SECONDS));
    assertTrue(failed.getCause() instanceof dev.brace.runtime.TimeoutExceededException, String.valueOf(failed.getCause()));
    assertTrue(inner.isCancelled());
  }

  @Test
  void aStackAndAGeneratedWrapperNamingTheSameBreakerShareItsState() throws Exception {
    IOException down = new IOException("down");
    Features.Shared wrapper = ResilientFeatures_Shared.wrap(() -> {
      throw down;
    }, registry);
    Stack<String> stack = Stack.<String>builder("shared.stack")
        .circuitBreaker("shared-breaker", b -> b.failureThreshold(2).resetTimeout("30s"))
        .build(registry);

    assertSame(down, assertThrows(IOException.class, wrapper::call));
    assertThrows(IOException.class, () -> stack.call(() -> {
      throw down;
    }));

    assertThrows(CircuitOpenException.class, wrapper::call, "opened by one failure of each form");
    assertThrows(CircuitOpenException.class, () -> stack.call(() -> "never"));
    registry.circuitBreaker("shared-breaker").reset();
    assertEquals("ok", stack.call(() -> "ok"));
  }
}
