package dev.brace.runtime.internal.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Criticality;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.CallEnd;
import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.internal.attempt.KeyedFamily;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.SlotInvoker;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Taking breaker, limiter and bulkhead now, as the pipeline's attempt that must not wait takes
 * them: a breaker or limiter that does not say otherwise answers "not now", so one of another
 * backend is asked the waiting way as before; whatever was taken before a "not now" goes back,
 * and what was taken before a full bulkhead is left in a state the waiting way goes on with.
 */
class TakeNowTest {
  private final ManualTimeSource time = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());
  private final AtomicInteger delegateCalls = new AtomicInteger();
  private final SlotInvoker delegate = (method, target, a, b, c, d, x, y) -> {
    delegateCalls.incrementAndGet();
    return "answered";
  };
  private final CallEnd unmetered = (started, metrics, attemptNanos, outcomeAt) -> {
    throw new AssertionError("nobody meters these calls: the call's end is not told");
  };

  /** A bucket of one token a second whose one token is there now. */
  private TokenBucketRateLimiter oneTokenBucket() {
    return new TokenBucketRateLimiter(
        RateLimitConfig.builder("take-now").permits(1).per("1s").burst(1).maxWait("0ms").build(), time, events);
  }

  private Object attempt(AttemptPipeline pipeline) {
    return pipeline.callWithoutWaiting(delegate, 0, null, null, null, null, null, 0L, 0L, AttemptState.UNTIMED,
        unmetered, null);
  }

  @Test
  void aBreakerAndALimiterThatDoNotSayOtherwiseAnswerNotNowAndTakeNothing() {
    CountingBreaker breaker = new CountingBreaker("elsewhere");
    CountingLimiter limiter = new CountingLimiter(oneTokenBucket());

    assertNull(breaker.takeNow());
    assertFalse(limiter.takeNow(time.nanoTime()));
    assertEquals(0, breaker.acquired.get());
    assertEquals(0, limiter.reservedAhead.get());
    assertEquals(time.nanoTime(), limiter.reserveTokenAt(time.nanoTime()), "the limiter's token is still there");
  }

  @Test
  void anAttemptWhoseBreakerCannotTakeNowDoesNotStartAndTheWaitingWayAsksIt() {
    CountingBreaker breaker = new CountingBreaker("elsewhere");
    AttemptPipeline pipeline = AttemptPipeline.builder("C.elsewhere", time, events)
        .breakers(KeyedFamily.<CircuitBreakerInstance>of("elsewhere", breaker), false)
        .build();
    assertTrue(pipeline.triesWithoutWaiting(false), "a breaker of another backend is asked, and answers for itself");

    assertSame(AttemptPipeline.NOT_NOW, attempt(pipeline));
    assertEquals(0, delegateCalls.get());
    assertEquals(0, breaker.acquired.get(), "nothing taken");

    AttemptState state = new AttemptState().start(CallKeys.NONE);
    pipeline.admitBlocking(state);
    pipeline.succeeded(state, "answered");
    assertEquals(1, breaker.acquired.get(), "the waiting way asked the breaker");
    assertEquals(1, breaker.successes.get());
  }

  @Test
  void aBreakersTicketTakenNowGoesBackUnjudgedWhenTheLimitersTokenIsNotThereNow() {
    CountingBreaker breaker = new CountingBreaker("takes-now");
    breaker.takesNow = true;
    TokenBucketRateLimiter limiter = oneTokenBucket();
    assertTrue(limiter.takeNow(time.nanoTime()), "another caller takes the one token");
    AttemptPipeline pipeline = AttemptPipeline.builder("C.spent", time, events)
        .breakers(KeyedFamily.<CircuitBreakerInstance>of("takes-now", breaker), false)
        .limiters(KeyedFamily.<RateLimiterInstance>of("take-now", limiter), null)
        .build();

    assertSame(AttemptPipeline.NOT_NOW, attempt(pipeline));
    assertEquals(0, delegateCalls.get());
    assertEquals(1, breaker.acquired.get());
    assertEquals(1, breaker.released.get(), "the state went back without an outcome");
    assertEquals(0, breaker.outstanding());

    time.advance(Duration.ofSeconds(1));
    assertEquals("answered", attempt(pipeline), "the next token is there: the attempt is made without waiting");
    assertEquals(1, breaker.successes.get());
    assertEquals(0, breaker.outstanding());
    assertNull(breaker.doubleCompletion.get());
  }

  @Test
  void aFullBulkheadLeavesATicketHoldingTheBreakersTicketAndTheToken() {
    CountingBreaker breaker = new CountingBreaker("takes-now");
    breaker.takesNow = true;
    TokenBucketRateLimiter limiter = oneTokenBucket();
    SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(BulkheadConfig.builder("take-now").maxConcurrent(1).build(),
        time, time::scheduler, events);
    assertTrue(bulkhead.takeNow(Criticality.Level.DEFAULT), "a holder takes the only permit");
    AttemptPipeline pipeline = AttemptPipeline.builder("C.full", time, events)
        .breakers(KeyedFamily.<CircuitBreakerInstance>of("takes-now", breaker), false)
        .limiters(KeyedFamily.<RateLimiterInstance>of("take-now", limiter), null)
        .bulkhead(bulkhead, Criticality.Level.DEFAULT)
        .build();

    AttemptState left = assertInstanceOf(AttemptState.class, attempt(pipeline));
    assertEquals(0, delegateCalls.get());
    assertNull(left.failure());
    assertFalse(limiter.takeNow(time.nanoTime()), "the attempt holds the one token");

    AttemptState state = new AttemptState().start(CallKeys.NONE);
    state.takeOver(left);
    pipeline.abandon(state);
    assertEquals(1, breaker.released.get(), "the waiting way gave back what the attempt took");
    assertEquals(0, breaker.outstanding());
    assertEquals(1, bulkhead.inFlight(), "only the holder's permit is out");
  }
}
