package dev.brace.runtime.internal.sequence;

import static dev.brace.runtime.internal.sequence.AsyncFixture.failureOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.internal.policy.HedgePolicy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A hedged asynchronous call whose group cannot even start its first attempt. */
class AsyncHedgeStartFailureTest {

  /** An Error thrown by the breaker as the first attempt is admitted leaves the group's start as it came. */
  @Test
  void anErrorWhileTheGroupStartsFailsTheCallWithThatError() {
    PipelineRig rig = new PipelineRig(1, false, 1, (steps, events) -> steps.hedge(
        new HedgePolicy(HedgeConfig.builder(PipelineRig.CALL).delay("100ms").maxHedges(1).build(),
            PipelineRig.CALL, events, null, false),
        Runnable::run));
    BrokenBackend broken = new BrokenBackend();
    rig.breaker.onAcquire = () -> {
      throw broken;
    };

    CompletableFuture<String> result = AsyncDriver.call(rig.policies, rig, null, null, null, null, 0L, 0L);

    assertSame(broken, failureOf(result), "the call fails with the Error, not left pending");
    assertEquals(0, rig.delegateCalls.get());
    AtomicInteger laterAsks = new AtomicInteger();
    rig.breaker.onAcquire = laterAsks::incrementAndGet;
    rig.everythingFallsDue();
    assertEquals(0, laterAsks.get(), "the group the Error decided launches no hedge");
    assertEquals(0, rig.delegateCalls.get());
  }

  private static final class BrokenBackend extends Error {
    private static final long serialVersionUID = 1L;

    BrokenBackend() {
      super("the breaker's backend broke");
    }
  }
}
