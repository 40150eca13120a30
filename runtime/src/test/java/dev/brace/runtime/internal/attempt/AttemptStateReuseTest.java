package dev.brace.runtime.internal.attempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Criticality;
import dev.brace.runtime.BulkheadFullException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.support.CallKeys;
import java.io.IOException;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One attempt state serves every attempt of a call: what an attempt's wait left in it must not shorten the
 * next attempt's. Here a caller that does not block polls a full bulkhead (as an asynchronous
 * attempt does), is admitted after some polls, fails, and polls again with the same attempt's state.
 */
class AttemptStateReuseTest {
  private final ManualTimeSource time = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());

  /** @return how long the attempt's state polled before it was refused, the waits admission asked for added up */
  private static long polledUntilRefused(AttemptPipeline pipeline, AttemptState state) {
    long waited = 0;
    while (true) {
      Admission admission = pipeline.admit(state);
      if (admission == Admission.REFUSED) {
        assertInstanceOf(BulkheadFullException.class, state.refusal());
        return waited;
      }
      assertEquals(Admission.WAIT, admission, "the bulkhead stays full");
      waited += state.waitNanos();
    }
  }

  @Test
  void aSecondAttemptWaitsTheBulkheadsWholeMaxWaitAgainAfterTheFirstHadWaitedPartOfIt() {
    SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(
        BulkheadConfig.builder("reused").maxConcurrent(1).maxWait("100ms").build(), time::scheduler, events);
    AttemptPipeline pipeline = AttemptPipeline.builder("Reused.call", time, events)
        .bulkhead(bulkhead, Criticality.Level.DEFAULT).build();
    long maxWait = TimeUnit.MILLISECONDS.toNanos(100);
    assertTrue(bulkhead.takeNow(Criticality.Level.DEFAULT), "a holder takes the only permit");
    AttemptState state = new AttemptState().start(CallKeys.NONE);

    // Attempt 1 polls a while, then the holder lets go and the next poll admits it; it fails.
    for (int poll = 0; poll < 6; poll++) {
      assertEquals(Admission.WAIT, pipeline.admit(state));
    }
    bulkhead.release();
    assertEquals(Admission.ADMITTED, pipeline.admit(state));
    pipeline.failed(state, new IOException("down"));

    // Attempt 2 with the same attempt's state finds the bulkhead full again: it may wait the whole maxWait.
    assertTrue(bulkhead.takeNow(Criticality.Level.DEFAULT), "another holder takes the permit");
    state.start(CallKeys.NONE);
    assertEquals(maxWait, polledUntilRefused(pipeline, state), "the first attempt's polls are not counted again");
  }
}
