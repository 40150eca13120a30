package dev.brace.runtime.internal.sequence;

import static dev.brace.runtime.internal.sequence.AsyncFixture.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.Registry;
import dev.brace.runtime.Stack;
import dev.brace.runtime.support.StageAdapter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * An asynchronous call whose delegate returns something other than a stage (as a Reactor {@code
 * Mono}), its attempt deferred by an injected latency: the deferred attempt runs on a copy of the
 * call's frame, and that copy still turns what the delegate returns into a stage.
 */
class AdaptedDelayedAttemptTest {

  @Test
  void anAttemptDeferredByAnInjectedLatencyIsStillAdaptedWhenItRuns() {
    ManualTimeSource clock = new ManualTimeSource();
    Registry registry = Registry.builder().timeSource(clock).environment(Map.of(
        "BRACE_CHAOS_ENABLED", "true", "BRACE_CHAOS_PLAIN_LATENCY", "100ms", "BRACE_CHAOS_PLAIN_LATENCY_RATE", "1")).build();
    Stack<String> stack = Stack.<String>builder("plain").retry(r -> r.maxAttempts(1)).build(registry);
    AtomicInteger adapted = new AtomicInteger();
    StageAdapter adapter = new StageAdapter() {
      @Override
      public CompletionStage<?> attempt(Object returned) {
        adapted.incrementAndGet();
        return CompletableFuture.completedFuture("adapted " + returned);
      }

      @Override
      public CompletionStage<?> answer(Object answered) {
        return CompletableFuture.completedFuture(answered);
      }
    };
    Supplier<String> delegate = () -> "raw";

    CompletableFuture<String> result = AsyncDriver.call(
        ResilientCalls.current(stack.resilientCall()), adapter, delegate, null, null, null, null, 0L, 0L);
    assertFalse(result.isDone(), "the latency defers the attempt");
    clock.advance(Duration.ofMillis(100));

    assertEquals("adapted raw", valueOf(result));
    assertEquals(1, adapted.get());
  }
}
