package dev.brace.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.brace.runtime.config.CircuitBreakerConfig;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A breaker times its attempts only when it judges latency: without {@code slowCall} a call reads
 * the registry's clock exactly as often as it did before slow calls existed, and with it, twice
 * more per attempt (at admission and at the outcome), plus the read a time window makes to find
 * the bucket of each outcome it records.
 */
class SlowCallClockReadsTest {
  private static final int CALLS = 50;

  private static long readsPerCall(Consumer<CircuitBreakerConfig.Builder> settings) throws Exception {
    CountingClock time = new CountingClock();
    Registry registry = Registry.builder().timeSource(time).scheduler(time.clock().scheduler()).build();
    Stack<String> stack = Stack.<String>builder("Api.call").circuitBreaker("api", settings).build(registry);
    stack.call(() -> "warm");
    long before = time.reads();
    for (int i = 0; i < CALLS; i++) {
      stack.call(() -> "ok");
    }
    long reads = time.reads() - before;
    assertEquals(0, reads % CALLS, "every call reads the clock equally often: " + reads);
    return reads / CALLS;
  }

  @Test
  void aClassicBreakerWithoutSlowCallNeverReadsTheClockOnItsHappyPath() throws Exception {
    assertEquals(0, readsPerCall(b -> b.failureThreshold(5)));
  }

  @Test
  void slowCallAddsTwoReadsPerAttemptWithACountWindow() throws Exception {
    assertEquals(2, readsPerCall(b -> b.failureThreshold(5).slowCall("1s").windowCalls(20)));
  }

  @Test
  void aTimeWindowReadsTheClockOnceMorePerOutcomeToFindItsBucket() throws Exception {
    assertEquals(3, readsPerCall(b -> b.failureThreshold(5).slowCall("1s")));
  }

  @Test
  void inRateModeSlowCallAddsTheSameTwoReads() throws Exception {
    long without = readsPerCall(b -> b.failureRate(0.5).windowCalls(20));
    assertEquals(0, without, "a count window reads no clock");
    assertEquals(2, readsPerCall(b -> b.failureRate(0.5).windowCalls(20).slowCall("1s")));
  }
}
