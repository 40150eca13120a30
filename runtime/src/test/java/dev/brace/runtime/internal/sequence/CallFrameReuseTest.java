package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The per-thread {@link CallFrame} a call borrows is given back when the call's method returns, so
 * the thread's next call borrows the same one (no frame per call, nothing of the call kept).
 */
class CallFrameReuseTest {

  @Test
  void anAsyncCallGivesItsThreadsFrameBackWhenItReturnsItsFuture() {
    PipelineRig rig = new PipelineRig(1, false, 1, null);
    CallFrame before = CallFrame.enter(rig.policies, this, null, null, null, null, 0L, 0L);
    before.exit();

    CompletableFuture<String> result = AsyncDriver.call(rig.policies, rig, "argument", null, null, null, 0L, 0L);

    CallFrame after = CallFrame.enter(rig.policies, this, null, null, null, null, 0L, 0L);
    try {
      assertSame(before, after, "the thread's next call borrows the frame the async call gave back");
    } finally {
      after.exit();
    }
    rig.futures.get(0).complete("ok");
    assertEquals("ok", result.getNow(null));
    assertEquals("", rig.held());
  }
}
