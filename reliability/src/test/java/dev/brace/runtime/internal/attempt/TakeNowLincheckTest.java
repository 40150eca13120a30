package dev.brace.runtime.internal.attempt;

import dev.brace.Criticality;
import dev.brace.reliability.Budget;
import dev.brace.reliability.Report;
import dev.brace.reliability.SteppedClock;
import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.internal.event.EventBus;
import dev.brace.runtime.internal.policy.DefaultCircuitBreaker;
import dev.brace.runtime.internal.policy.SemaphoreBulkhead;
import dev.brace.runtime.internal.policy.TokenBucketRateLimiter;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.SlotInvoker;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck explores interleavings of calls through one real {@link AttemptPipeline} — the attempt
 * made without waiting ({@code takeNow} on a real breaker, limiter and bulkhead), and the waiting
 * way when it answers "not now" — with a breaker's transition to OPEN and with reconfigurations of
 * the limiter and the breaker, all on other threads, and checks every result against {@link Model}:
 * a breaker that is open or closed and a bucket of {@link #BURST} tokens that never refills (the
 * clock stands still). So a token is never admitted twice or lost, however a take-now interleaves
 * with the bucket being frozen and replaced by new settings; a call is never admitted by a
 * circuit that was open before it began; and every permit and breaker ticket the attempt took
 * comes back ({@link Operations#everythingGivenBack}).
 *
 * <p>A take-now that meets new settings being switched to answers "not now" and the call goes the
 * waiting way, which waits the switch out: to the caller that is one admission, as the model says.
 */
// Model checking is CPU-bound work of a fixed size, not a wait: at a load of 30 on two cores it
// takes minutes, past the build's two-minute default, which is meant to catch hangs.
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class TakeNowLincheckTest {
  static final int BURST = 3;
  static final int THREADS = 3;

  // Settings are built here, once, outside the model checker: building them parses and validates,
  // which is not the race and would cost every interleaving.
  /** Another cooldown each (which the still clock never reaches), one failure opening the circuit. */
  static final CircuitBreakerConfig[] BREAKER_SETTINGS = {
      CircuitBreakerConfig.builder("take-now").failureThreshold(1).resetTimeout(Duration.ofMinutes(1)).build(),
      CircuitBreakerConfig.builder("take-now").failureThreshold(1).resetTimeout(Duration.ofMinutes(2)).build()};
  /** Another rate each, the same burst, so the tokens there stay there. */
  static final RateLimitConfig[] LIMITER_SETTINGS = {
      RateLimitConfig.builder("take-now").permits(1).per(Duration.ofMillis(10)).burst(BURST).maxWait(Duration.ZERO).build(),
      RateLimitConfig.builder("take-now").permits(1).per(Duration.ofMillis(20)).burst(BURST).maxWait(Duration.ZERO).build()};
  /** As many permits as threads: the bulkhead is taken and given back on every admitted call, never full. */
  static final BulkheadConfig BULKHEAD_SETTINGS = BulkheadConfig.builder("take-now").maxConcurrent(THREADS).build();

  /** The operations on the real pipeline and its patterns. */
  public static class Operations {
    /** Made once: a stack trace filled under the model checker's instrumentation costs much. */
    private static final IOException DOWN = new IOException("down");

    private final SteppedClock clock = new SteppedClock(1_000_000_000L);
    private final EventBus events = new EventBus(Clock.systemUTC());
    private final DefaultCircuitBreaker breaker = new DefaultCircuitBreaker(BREAKER_SETTINGS[0], clock, events);
    private final TokenBucketRateLimiter limiter = new TokenBucketRateLimiter(LIMITER_SETTINGS[0], clock, events);
    private final SemaphoreBulkhead bulkhead = new SemaphoreBulkhead(BULKHEAD_SETTINGS, clock,
        () -> {
          throw new IllegalStateException("maxWait is zero: nobody waits, so no deadline is scheduled");
        },
        events);
    private final AttemptPipeline pipeline = AttemptPipeline.builder("Lincheck.call", clock, events)
        .breakers(KeyedFamily.<CircuitBreakerInstance>of("take-now", breaker), false)
        .limiters(KeyedFamily.<RateLimiterInstance>of("take-now", limiter), null)
        .bulkhead(bulkhead, Criticality.Level.DEFAULT)
        .build();
    private final SlotInvoker delegate = (method, target, a, b, c, d, x, y) -> "ok";
    private final CallEnd unmetered = (started, metrics, attemptNanos, outcomeAt) -> {
      throw new IllegalStateException("nobody meters: the call's end is not told");
    };
    private final AtomicInteger limiterSettings = new AtomicInteger();
    private final AtomicInteger breakerSettings = new AtomicInteger();

    /**
     * A call as a driver makes it: without waiting first, the waiting way when that answers "not
     * now".
     *
     * @return "ok" (admitted, and its success recorded), "open" or "limited" (refused)
     */
    @Operation
    public String call() {
      Object result = pipeline.callWithoutWaiting(delegate, 0, null, null, null, null, null, 0L, 0L,
          AttemptState.UNTIMED, unmetered, null);
      if (result instanceof AttemptState) {
        return "left a ticket (the bulkhead is never full and the delegate never fails)";
      }
      if (result != AttemptPipeline.NOT_NOW) {
        return (String) result;
      }
      AttemptState attemptState = new AttemptState().start(CallKeys.NONE);
      Admission admission = pipeline.admit(attemptState);
      if (admission == Admission.ADMITTED) {
        pipeline.succeeded(attemptState, "ok");
        return "ok";
      }
      if (admission == Admission.WAIT) {
        pipeline.abandon(attemptState);
        return "asked to wait (maxWait is zero)";
      }
      RuntimeException refusal = attemptState.refusal();
      if (refusal instanceof CircuitOpenException) {
        return "open";
      }
      return refusal instanceof RateLimitedException ? "limited" : "refused by " + refusal;
    }

    /**
     * A failing call straight on the breaker: one failure opens a closed circuit. Nothing is
     * answered: two of them admitted by the same closed circuit both fail, and only the first
     * failure moves it, which no order of whole operations would tell apart from the second being
     * refused.
     */
    @Operation
    public void trip() {
      Object attemptState;
      try {
        attemptState = breaker.acquire();
      } catch (CircuitOpenException open) {
        return;
      }
      breaker.onFailure(attemptState, DOWN);
    }

    /** New limiter settings, the other of {@link #LIMITER_SETTINGS}. */
    @Operation
    public void reconfigureLimiter() {
      limiter.reconfigure(LIMITER_SETTINGS[limiterSettings.incrementAndGet() % 2]);
    }

    /** New breaker settings, the other of {@link #BREAKER_SETTINGS}. */
    @Operation
    public void reconfigureBreaker() {
      breaker.reconfigure(BREAKER_SETTINGS[breakerSettings.incrementAndGet() % 2]);
    }

    @Validate
    public void everythingGivenBack() {
      if (bulkhead.inFlight() != 0) {
        throw new IllegalStateException(bulkhead.inFlight() + " permits never came back");
      }
      if (breaker.state() == CircuitState.HALF_OPEN) {
        throw new IllegalStateException("the still clock never ends the cooldown: no probe can have been admitted");
      }
    }
  }

  /** The sequential specification: an open-or-closed circuit in front of a bucket that never refills. */
  public static class Model {
    private boolean open;
    private int tokens = BURST;

    public String call() {
      if (open) {
        return "open";
      }
      if (tokens == 0) {
        return "limited";
      }
      tokens--;
      return "ok";
    }

    public void trip() {
      open = true;
    }

    public void reconfigureLimiter() {}

    public void reconfigureBreaker() {}
  }

  @Test
  void aTakeNowNeverAdmitsTwiceOrPastAnOpenCircuitWhateverReconfiguresOrTripsMeanwhile() {
    Report report = new Report("lincheck-take-now");
    int iterations = Budget.pick(6, 30);
    int invocations = Budget.pick(300, 1_000);
    new ModelCheckingOptions()
        .iterations(iterations)
        .invocationsPerIteration(invocations)
        .threads(THREADS)
        .actorsPerThread(3)
        .actorsBefore(1)
        .actorsAfter(1)
        // The event bus (logging, listeners) runs as one step: its interleavings are not the race.
        .addGuarantee(ManagedStrategyGuaranteeKt.forClasses(EventBus.class.getName()).allMethods().treatAsAtomic())
        .sequentialSpecification(Model.class)
        .check(Operations.class);
    report.put("strategy", "model-checking").put("scenarios", iterations).put("invocations_per_scenario", invocations)
        .put("invariants", "linearizable-vs-circuit-and-bucket,no-token-twice,no-admission-past-open,permits-back")
        .print();
  }
}
