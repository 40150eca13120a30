package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Retry;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.KeyedFamily;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.RetryPolicy;
import dev.brace.runtime.support.CallDefinition;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A generated method's own attempt whose success cannot be recorded (a breaker of another backend
 * whose store refuses the outcome): the success step throws, the generated method's handler hands
 * that to the failure step as it would the delegate's own failure, and the call goes on from it as
 * a failure already recorded: retried the staged way, or thrown as itself.
 */
class SuccessNotRecordedTest {
  private static final String CALL = "Store.read";

  private final ManualTimeSource time = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());
  private final CountingBreaker breaker = new CountingBreaker("store");
  private final AtomicInteger slotCalls = new AtomicInteger();
  private final IllegalStateException storeDown = new IllegalStateException("the breaker's store refused the outcome");

  SuccessNotRecordedTest() {
    breaker.takesNow = true;
    AtomicInteger records = new AtomicInteger();
    breaker.onRecord = () -> {
      if (records.getAndIncrement() == 0) {
        throw storeDown;
      }
    };
  }

  private CallPolicies policies(int maxAttempts) {
    AttemptPipeline pipeline = AttemptPipeline.builder(CALL, time, events)
        .breakers(KeyedFamily.of("store", breaker), false)
        .build();
    CallDefinition definition = CallDefinition.builder(CALL).invokes((method, target, a, b, c, d, x, y) -> {
      slotCalls.incrementAndGet();
      return "read again";
    }, 0).build();
    RetryConfig retry = RetryConfig.builder(CALL).maxAttempts(maxAttempts).delay("0ms").jitter(Retry.Jitter.NONE).build();
    return CallPolicies.builder(definition, time, events, time::scheduler)
        .attempts(pipeline)
        .retry(new RetryPolicy(retry, CALL, time, events, null))
        .build();
  }

  /** As the generated method does it, its delegate answering {@code "read"}. */
  private static Object generatedCall(CallPolicies policies) {
    long at = SyncDriver.instant(policies);
    Object held = SyncDriver.admitNow(policies, at);
    assertTrue(SyncDriver.admitted(held), "admitted without waiting: the breaker takes now");
    try {
      Object result = "read";
      SyncDriver.succeeded(held, at);
      return result;
    } catch (Throwable failure) {
      held = SyncDriver.failed(held, at, failure);
    }
    return SyncDriver.staged(policies, held, at, null, null, null, null, null, 0L, 0L);
  }

  @Test
  void aSuccessThatCannotBeRecordedIsAFailureTheRetryTriesAgainTheStagedWay() {
    assertEquals("read again", generatedCall(policies(2)));

    assertEquals(1, slotCalls.get(), "the second attempt went the staged way");
    assertEquals(1, breaker.successes.get(), "the second attempt's success is recorded");
    assertEquals(0, breaker.failures.get(), "the first outcome was never recorded, nor recorded twice");
  }

  @Test
  void withoutARetryTheCallEndsWithWhatRecordingThrew() {
    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> generatedCall(policies(1)));

    assertSame(storeDown, thrown, "thrown as itself, not wrapped");
    assertEquals(0, slotCalls.get());
  }

  @Test
  void theSuccessStepHandsTheRecordedFailureOnAsItsCause() {
    CallPolicies policies = policies(1);
    long at = SyncDriver.instant(policies);
    Object held = SyncDriver.admitNow(policies, at);

    HeldAttempt.SuccessNotRecorded notRecorded =
        assertThrows(HeldAttempt.SuccessNotRecorded.class, () -> SyncDriver.succeeded(held, at));

    assertSame(storeDown, notRecorded.getCause());
    assertNotNull(notRecorded.left);
    assertEquals(0, notRecorded.getStackTrace().length, "made without a stack trace of its own");
  }
}
