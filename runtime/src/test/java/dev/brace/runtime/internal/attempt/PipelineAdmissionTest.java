package dev.brace.runtime.internal.attempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.brace.Bulkhead;
import dev.brace.Criticality;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.DeadlineExceededException;
import dev.brace.runtime.ManualTimeSource;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.DeadlineConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DeadlinePolicy;
import dev.brace.runtime.internal.policy.DefaultCircuitBreaker;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TimeoutPolicy;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.support.CallKeys;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Admission through the pipeline driven step by step on manual time, as a driver that does not
 * block drives it: what a wait asks for, what ends it, and what is given back when it ends badly.
 */
class PipelineAdmissionTest {
  private static final Criticality.Level DEFAULT = Criticality.Level.DEFAULT;

  private final ManualTimeSource time = new ManualTimeSource();
  private final EventBus events = new EventBus(Clock.systemUTC());
  private final AttemptState attemptState = new AttemptState().start(CallKeys.NONE);

  private DeadlinePolicy deadlines(boolean inherit) {
    return new DeadlinePolicy(DeadlineConfig.builder("Admission.call").inherit(inherit).build(), "Admission.call", time,
        time::scheduler, events);
  }

  private TimeoutPolicy timeout(String duration) {
    return new TimeoutPolicy(TimeoutConfig.builder("to").duration(duration).build(), "Admission.call", time, time.scheduler(),
        Runnable::run, events);
  }

  /** A limiter of one token a second whose token has just been taken: the next one is a second away. */
  private TokenBucketRateLimiter spentLimiter() {
    TokenBucketRateLimiter limiter = new TokenBucketRateLimiter(
        RateLimitConfig.builder("rl").permits(1).per("1s").burst(1).maxWait("5s").build(), time, events);
    limiter.acquire();
    return limiter;
  }

  private Deadline.Scope within(long millis) {
    return Deadline.open(Duration.ofMillis(millis), time);
  }

  // ---- whether an attempt is bounded ----

  /** An asynchronous driver arms a deadline task only for an attempt this says is bounded. */
  @Test
  void anAttemptIsBoundedByATimeoutOrByTheCallersDeadlineWhenTheCallInheritsIt() {
    TimeoutPolicy timeout = timeout("1s");
    AttemptPipeline timed = AttemptPipeline.builder("Admission.timed", time, events).timeout(timeout).build();
    AttemptPipeline inheriting = AttemptPipeline.builder("Admission.inherits", time, events).deadlines(deadlines(true)).build();
    AttemptPipeline ignoring = AttemptPipeline.builder("Admission.ignores", time, events).deadlines(deadlines(false)).build();

    assertTrue(timed.bounds().bounded(attemptState));
    assertSame(timeout, timed.bounds().timeout(), "the sequence runs its waits on the timeout's scheduler");
    assertFalse(inheriting.bounds().bounded(attemptState), "no deadline on this thread");
    try (Deadline.Scope scope = within(300)) {
      assertTrue(inheriting.bounds().bounded(attemptState), "bounded by the caller's deadline");
      assertFalse(ignoring.bounds().bounded(attemptState), "a call that must finish ignores it");
    }
  }

  // ---- waits ----

  /** The last look at a full bulkhead falls on the deadline; a permit freed then comes too late. */
  @Test
  void aPermitThatComesFreeOnlyAtTheDeadlineIsGivenBackAndTheAttemptRefused() {
    SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(
        BulkheadConfig.builder("bh").maxConcurrent(1).maxWait("5s").build(), time::scheduler, events);
    AttemptPipeline pipeline = AttemptPipeline.builder("Admission.bulkhead", time, events)
        .bulkhead(bulkhead, DEFAULT).deadlines(deadlines(true)).reportedWith("retry", null).faults(null).build();
    assertTrue(bulkhead.takeNow(DEFAULT), "a holder takes the only permit");
    long start = time.nanoTime();
    try (Deadline.Scope scope = within(300)) {
      assertEquals(Admission.WAIT, pipeline.admit(attemptState));
      while (time.nanoTime() + attemptState.waitNanos() - start < Duration.ofMillis(300).toNanos()) {
        time.advance(Duration.ofNanos(attemptState.waitNanos()));
        assertEquals(Admission.WAIT, pipeline.admit(attemptState));
      }
      time.advance(Duration.ofNanos(attemptState.waitNanos()));
      assertEquals(Duration.ofMillis(300), Duration.ofNanos(time.nanoTime() - start), "the waits end at the deadline");
      bulkhead.release();

      assertEquals(Admission.REFUSED, pipeline.admit(attemptState));
    }
    assertInstanceOf(DeadlineExceededException.class, attemptState.refusal());
    assertEquals(0, bulkhead.inFlight(), "the permit taken too late went back");
  }

  /** A scheduler may run the task that asks again before the token is due: the attempt waits the rest. */
  @Test
  void anAttemptAskedAgainBeforeItsTokenIsDueWaitsTheRestAndItsTimeoutCountsFromTheToken() {
    RateLimiterInstance limiter = spentLimiter();
    AttemptPipeline pipeline = AttemptPipeline.builder("Admission.token", time, events)
        .limiters(KeyedFamily.of("rl", limiter), null).timeout(timeout("1s")).build();

    assertEquals(Admission.WAIT, pipeline.admit(attemptState));
    assertEquals(Duration.ofSeconds(1), Duration.ofNanos(attemptState.waitNanos()));
    time.advance(Duration.ofMillis(400));
    assertEquals(Admission.WAIT, pipeline.admit(attemptState), "asked early");
    assertEquals(Duration.ofMillis(600), Duration.ofNanos(attemptState.waitNanos()));
    time.advance(Duration.ofMillis(600));
    assertEquals(Admission.ADMITTED, pipeline.admit(attemptState));

    assertEquals(time.nanoTime(), attemptState.admittedAt(), "admitted when the token came, not when it was asked for");
    pipeline.abandon(attemptState);
  }

  @Test
  void aCallerInterruptedWhileWaitingForItsTokenIsRefusedKeepsItsInterruptAndGivesTheTokenBack() {
    TokenBucketRateLimiter limiter = spentLimiter();
    AttemptPipeline pipeline = AttemptPipeline.builder("Admission.interrupted", time, events)
        .limiters(KeyedFamily.of("rl", limiter), null).build();

    Thread.currentThread().interrupt();
    RateLimitedException refused;
    try {
      refused = assertThrows(RateLimitedException.class, () -> pipeline.admitBlocking(attemptState));
    } finally {
      assertTrue(Thread.interrupted(), "the interrupt flag is set again (and cleared here)");
    }
    assertInstanceOf(InterruptedException.class, refused.getCause());
    assertEquals(Optional.of(Duration.ofSeconds(1)), refused.retryAfter(), "the token was still a second away");
    time.advance(Duration.ofSeconds(1));
    assertEquals(1, limiter.availablePermits(), "the reserved token was given back");
    assertFalse(attemptState.admitted());
  }

  /** An Error on the way (here: making the key's limiter) passes through, and the breaker's probe slot is freed. */
  @Test
  void anErrorDuringAdmissionGivesBackWhatTheBreakerHandedOut() throws Exception {
    DefaultCircuitBreaker breaker = new DefaultCircuitBreaker(
        CircuitBreakerConfig.builder("cb").failureThreshold(1).resetTimeout("1s").build(), time, events);
    breaker.onFailure(breaker.acquire(), new IOException("down"));
    time.advance(Duration.ofSeconds(1));
    KeyedFamily<RateLimiterInstance> limiters = KeyedFamily.keyed("rl", 10, name -> {
      throw new OutOfMemoryError("no room for " + name);
    }, limiter -> false);
    AttemptPipeline pipeline = AttemptPipeline.builder("Admission.error", time, events)
        .breakers(KeyedFamily.of("cb", breaker), false).limiters(limiters, null).build();

    assertThrows(OutOfMemoryError.class, () -> pipeline.admit(attemptState.start(CallKeys.of(null, "user:1"))));

    assertFalse(attemptState.admitted());
    Object probe = breaker.acquire();
    assertEquals(CircuitState.HALF_OPEN, breaker.state(), "the probe's slot was free again");
    breaker.release(probe);
  }

  // ---- outcomes ----

  /**
   * An adaptive bulkhead learns each attempt's latency from its admission: a fast attempt sets the
   * no-load latency, and one a hundred times slower reads as a queue building, so the limit grows
   * by one step only (Vegas grows by its {@code beta}, six, while latency stays near the no-load one).
   */
  @Test
  void anAdaptiveBulkheadLearnsEachAttemptsLatencyFromItsAdmission() {
    SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(BulkheadConfig.builder("adaptive").adaptive(Bulkhead.Adaptive.VEGAS)
        .minConcurrent(1).initialConcurrent(2).maxConcurrent(50).build(), time, time::scheduler, events);
    AttemptPipeline pipeline = AttemptPipeline.builder("Admission.adaptive", time, events).bulkhead(bulkhead, DEFAULT).build();
    time.advance(Duration.ofSeconds(100));

    assertEquals(Admission.ADMITTED, pipeline.admit(attemptState.start(CallKeys.NONE)));
    time.advance(Duration.ofMillis(10));
    pipeline.succeeded(attemptState, "fast");
    assertEquals(2, bulkhead.limit(), "the first sample is the no-load latency");

    assertEquals(Admission.ADMITTED, pipeline.admit(attemptState.start(CallKeys.NONE)));
    time.advance(Duration.ofSeconds(1));
    pipeline.succeeded(attemptState, "slow");
    assertEquals(3, bulkhead.limit());
  }
}
