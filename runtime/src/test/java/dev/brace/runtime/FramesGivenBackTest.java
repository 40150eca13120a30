package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.brace.Retry;
import dev.brace.runtime.internal.sequence.CallFrame;
import dev.brace.runtime.internal.sequence.ResilientCalls;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Every way a call leaves its driver gives the thread's frame back, whichever way it borrowed one:
 * the staged way from the start, or after its first attempt made without waiting did not start or left a
 * ticket. A frame not given back would not fail the call; it would leave the thread one frame deeper
 * after each such call, so the thread's next call would borrow another frame than the one before.
 */
class FramesGivenBackTest {
  private final ManualTimeSource clock = new ManualTimeSource();
  private final Registry registry = Registry.builder().timeSource(clock).scheduler(clock.scheduler()).build();

  interface Call {
    void run() throws Exception;
  }

  /** Makes {@code call} between two borrowings of the thread's next frame: both must be the same frame. */
  private void givesTheFrameBack(Stack<String> stack, Call call) throws Exception {
    CallFrame before = CallFrame.enter(ResilientCalls.current(stack.resilientCall()), this, null, null, null, null, 0L, 0L);
    before.exit();
    call.run();
    CallFrame after = CallFrame.enter(ResilientCalls.current(stack.resilientCall()), this, null, null, null, null, 0L, 0L);
    try {
      assertSame(before, after, "the call gave the thread's frame back");
    } finally {
      after.exit();
    }
  }

  @Test
  void aSynchronousCallTheStagedWayFromTheStart() throws Exception {
    Stack<String> stack = Stack.<String>builder("Frames.staged").retry(r -> r.maxAttempts(2).onResult(result -> false)).build(registry);
    assertFalse(ResilientCalls.current(stack.resilientCall()).callsWithoutWaiting());

    givesTheFrameBack(stack, () -> assertEquals("ok", stack.call(() -> "ok")));
  }

  @Test
  void aSynchronousCallWhoseFirstAttemptCouldNotStartWithoutWaiting() throws Exception {
    Stack<String> stack = Stack.<String>builder("Frames.noToken")
        .rateLimit("frames-no-token", l -> l.permits(1).per("1h").burst(1).maxWait("0ms")).build(registry);
    assertEquals("first", stack.call(() -> "first"));

    givesTheFrameBack(stack, () -> assertThrows(RateLimitedException.class, () -> stack.call(() -> "second")));
  }

  @Test
  void aSynchronousCallWhoseFirstAttemptHandedOverItsFailure() throws Exception {
    Stack<String> stack = Stack.<String>builder("Frames.failedOnce")
        .retry(r -> r.maxAttempts(2).delay("0ms").jitter(Retry.Jitter.NONE)).build(registry);
    AtomicInteger attempts = new AtomicInteger();

    givesTheFrameBack(stack, () -> assertEquals("ok", stack.call(() -> {
      if (attempts.incrementAndGet() == 1) {
        throw new IOException("the first attempt fails");
      }
      return "ok";
    })));
    assertEquals(2, attempts.get());
  }

  @Test
  void anAsynchronousCallWhoseFirstAttemptHandedOverItsFailure() throws Exception {
    Stack<String> stack = Stack.<String>builder("Frames.asyncFailedOnce")
        .retry(r -> r.maxAttempts(2).delay("1ms").jitter(Retry.Jitter.NONE)).build(registry);
    AtomicInteger attempts = new AtomicInteger();
    AtomicReference<CompletableFuture<String>> result = new AtomicReference<>();

    givesTheFrameBack(stack, () -> result.set(stack.callAsync(() -> attempts.incrementAndGet() == 1
        ? CompletableFuture.failedFuture(new IOException("the first attempt fails"))
        : CompletableFuture.completedFuture("ok"))));
    clock.advance(Duration.ofMillis(1));
    assertEquals("ok", result.get().getNow(null));
    assertEquals(2, attempts.get());
  }

  @Test
  void anAsynchronousCallWhoseFirstAttemptIsStillInFlight() throws Exception {
    Stack<String> stack = Stack.<String>builder("Frames.asyncInFlight").retry(r -> r.maxAttempts(2)).build(registry);
    CompletableFuture<String> pending = new CompletableFuture<>();
    AtomicReference<CompletableFuture<String>> result = new AtomicReference<>();

    givesTheFrameBack(stack, () -> result.set(stack.callAsync(() -> pending)));
    assertFalse(result.get().isDone());
    pending.complete("later");
    assertEquals("later", result.get().getNow(null));
  }
}
