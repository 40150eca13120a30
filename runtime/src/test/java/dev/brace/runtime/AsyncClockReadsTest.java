package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A clock read is most of what a local limiter costs, so an asynchronous call whose token is there
 * reads the clock once for the limiter, as a synchronous one does; one whose token is still to
 * come is handed to the driver with the instant it was reserved for.
 */
class AsyncClockReadsTest {
  private static final int CALLS = 50;

  private final CountingClock time = new CountingClock();
  private final Registry registry =
      Registry.builder().timeSource(time).scheduler(time.clock().scheduler()).build();

  @Test
  void anAsyncCallWhoseTokenIsThereReadsTheClockOnceAsASyncCallDoes() throws Exception {
    Stack<String> stack =
        Stack.<String>builder("Api.call")
            .retry(r -> r.maxAttempts(3))
            .circuitBreaker("api", b -> b.failureThreshold(5))
            .rateLimit("api", l -> l.permits(1_000_000).per("1s"))
            .bulkhead("api", b -> b.maxConcurrent(10))
            .build(registry);

    assertEquals(1, readsPerCall(() -> stack.callAsync(() -> CompletableFuture.completedFuture("ok")).join()));
    assertEquals(1, readsPerCall(() -> stack.call(() -> "ok")));
  }

  @Test
  void aSyncCallUnderATimeoutReadsTheClockOnceForItsTokenAndItsDeadline() throws Exception {
    Stack<String> stack =
        Stack.<String>builder("Api.bounded")
            .rateLimit("api", l -> l.permits(1_000_000).per("1s"))
            .timeout(t -> t.duration("1s"))
            .build(registry);

    assertEquals(1, readsPerCall(() -> stack.call(() -> "ok")));
  }

  @Test
  void anAsyncCallWhoseTokenIsStillToComeWaitsForTheInstantItWasReservedFor() {
    Stack<String> stack =
        Stack.<String>builder("Api.call")
            .rateLimit("api", l -> l.permits(1).per("100ms").maxWait("1s"))
            .build(registry);
    assertEquals("first", stack.callAsync(() -> CompletableFuture.completedFuture("first")).join());

    CompletableFuture<String> second = stack.callAsync(() -> CompletableFuture.completedFuture("second"));
    time.clock().advance(Duration.ofMillis(99));
    assertEquals(false, second.isDone(), "the token arrives 100 ms after the first");
    time.clock().advance(Duration.ofMillis(1));
    assertEquals("second", second.join());
  }

  /** A call that may throw, as {@link Stack#call} declares. */
  private interface Call {
    void run() throws Exception;
  }

  private long readsPerCall(Call call) throws Exception {
    call.run();
    long before = time.reads();
    for (int i = 0; i < CALLS; i++) {
      call.run();
    }
    long reads = time.reads() - before;
    assertEquals(0, reads % CALLS, "every call reads the clock equally often: " + reads);
    return reads / CALLS;
  }
}
