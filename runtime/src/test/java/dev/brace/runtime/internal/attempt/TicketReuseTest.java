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
 * One ticket serves every attempt of a call: what an attempt's wait left in it must not shorten the
 * next attempt's. Here a caller that does not block polls a full bulkhead (as an asynchronous
 * attempt does), is admitted after some polls, fails, and polls again with the same ticket.
 */
class TicketReuseTest {
  private final ManualTimeSource time = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());

  /** @return how long the ticket polled before it was refused, the waits admission asked for added up */
  private static long polledUntilRefused(AttemptPipeline pipeline, AttemptTicket ticket) {
    long waited = 0;
    while (true) {
      Admission admission = pipeline.admit(ticket);
      if (admission == Admission.REFUSED) {
        assertInstanceOf(BulkheadFullException.class, ticket.refusal());
        return waited;
      }
      assertEquals(Admission.WAIT, admission, "the bulkhead stays full");
      waited += ticket.waitNanos();
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
    AttemptTicket ticket = new AttemptTicket().start(CallKeys.NONE);

    // Attempt 1 polls a while, then the holder lets go and the next poll admits it; it fails.
    for (int poll = 0; poll < 6; poll++) {
      assertEquals(Admission.WAIT, pipeline.admit(ticket));
    }
    bulkhead.release();
    assertEquals(Admission.ADMITTED, pipeline.admit(ticket));
    pipeline.failed(ticket, new IOException("down"));

    // Attempt 2 with the same ticket finds the bulkhead full again: it may wait the whole maxWait.
    assertTrue(bulkhead.takeNow(Criticality.Level.DEFAULT), "another holder takes the permit");
    ticket.start(CallKeys.NONE);
    assertEquals(maxWait, polledUntilRefused(pipeline, ticket), "the first attempt's polls are not counted again");
  }
}
