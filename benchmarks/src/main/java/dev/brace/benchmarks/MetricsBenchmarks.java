package dev.brace.benchmarks;

import dev.brace.micrometer.BraceMetrics;
import dev.brace.runtime.CircuitState;
import dev.brace.runtime.Deadline;
import dev.brace.runtime.Registry;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedRateLimiterMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedRetryMetrics;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The four-pattern stack with metrics bound, each library through its own Micrometer binding, on
 * the meter registry the {@code registry} parameter names ({@link MeterRegistries}: {@code simple}
 * or {@code prometheus}): {@code brace-micrometer}'s {@link BraceMetrics}, bound as the Spring Boot
 * starter binds it, and {@code resilience4j-micrometer}'s tagged binders on Resilience4j's
 * registries. The same stacks without metrics are {@link BraceBenchmarks#fourPatterns} and {@link
 * Resilience4jBenchmarks#fourPatterns}; {@link #meteredFloor} is what they are read against.
 *
 * <p>{@link #braceFailing} and {@link #resilience4jFailing} measure a call to a dependency that is
 * down ({@link FailingTarget}): both attempts fail, the breaker counts both failures without
 * opening, the retry gives up and the last failure reaches the caller.
 *
 * <p>Logging is off (SLF4J has no provider; checked when the trial starts). {@link
 * MetricsLoggingBenchmarks} runs the happy path again with a provider at INFO.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class MetricsBenchmarks {

  @Setup
  public void requireLoggingOff() {
    Logging.requireOff();
  }

  /** A Brace registry with {@link BraceMetrics} bound to a new meter registry of the row's kind. */
  public abstract static class BraceBound {
    @Param({MeterRegistries.SIMPLE, MeterRegistries.PROMETHEUS})
    public String registry;

    Registry brace;
    MeterRegistry meters;
    private AutoCloseable binding;

    void bind() {
      meters = MeterRegistries.create(registry);
      brace = Registry.builder().build();
      binding = BraceMetrics.bind(brace, meters);
    }

    @TearDown
    public void tearDown() throws Exception {
      binding.close();
      meters.close();
    }
  }

  @State(Scope.Benchmark)
  public static class BraceFourPatterns extends BraceBound {
    BraceClients.FourPatterns client;

    @Setup
    public void setUp() {
      bind();
      client = ResilientBraceClients_FourPatterns.wrap(new Target(), brace);
    }
  }

  @State(Scope.Benchmark)
  public static class BraceFailing extends BraceBound {
    BraceClients.FailingFourPatterns client;

    @Setup
    public void setUp() {
      bind();
      client = ResilientBraceClients_FailingFourPatterns.wrap(new FailingTarget(), brace);
      failOnce(client::call);
      long attempts = meters.get("brace.attempts").tag("outcome", "failure").timer().count();
      CircuitState state = brace.circuitBreaker("bench-failing").state();
      if (attempts != Stacks.FAILING_MAX_ATTEMPTS || state != CircuitState.CLOSED) {
        throw new IllegalStateException("a failing call should make " + Stacks.FAILING_MAX_ATTEMPTS
            + " attempts and leave the breaker closed; it made " + attempts + " and the breaker is " + state);
      }
    }
  }

  /** The metered floor's counters, target, and the two timers {@link BraceMetrics} records a success into. */
  @State(Scope.Benchmark)
  public static class MeteredFloor extends BraceBound {
    final Target target = new Target();
    final FloorCounters counters = new FloorCounters();
    Timer attemptSucceeded;
    Timer callSucceeded;

    @Setup
    public void setUp() {
      bind();
      BraceClients.FourPatterns client = ResilientBraceClients_FourPatterns.wrap(new Target(), brace);
      SuccessMeters updated = SuccessMeters.updatedBy(meters, client::call);
      attemptSucceeded = updated.attempt();
      callSucceeded = updated.call();
    }
  }

  /**
   * Resilience4j's four registries, each with its {@code resilience4j-micrometer} tagged binder on
   * a new meter registry of the row's kind: the binders publish a registry's instances, so the
   * stack's instances are made through the registries.
   */
  public abstract static class Resilience4jBound {
    @Param({MeterRegistries.SIMPLE, MeterRegistries.PROMETHEUS})
    public String registry;

    Supplier<String> call;
    Retry retry;
    CircuitBreaker breaker;
    private MeterRegistry meters;

    void bind(Supplier<String> target, String name, RetryConfig retryConfig, CircuitBreakerConfig breakerConfig) {
      meters = MeterRegistries.create(registry);
      RetryRegistry retries = RetryRegistry.ofDefaults();
      CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
      RateLimiterRegistry limiters = RateLimiterRegistry.ofDefaults();
      BulkheadRegistry bulkheads = BulkheadRegistry.ofDefaults();
      TaggedRetryMetrics.ofRetryRegistry(retries).bindTo(meters);
      TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(meters);
      TaggedRateLimiterMetrics.ofRateLimiterRegistry(limiters).bindTo(meters);
      TaggedBulkheadMetrics.ofBulkheadRegistry(bulkheads).bindTo(meters);
      retry = retries.retry(name, retryConfig);
      breaker = breakers.circuitBreaker(name, breakerConfig);
      call = Resilience4jBenchmarks.fourPatterns(target,
          bulkheads.bulkhead(name, Resilience4jBenchmarks.bulkhead(name).getBulkheadConfig()),
          limiters.rateLimiter(name, Resilience4jBenchmarks.limiter(name).getRateLimiterConfig()),
          breaker, retry);
    }

    @TearDown
    public void tearDown() {
      meters.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Resilience4jFourPatterns extends Resilience4jBound {
    @Setup
    public void setUp() {
      bind(new Target()::call, "four", Resilience4jBenchmarks.retry("four").getRetryConfig(),
          Resilience4jBenchmarks.classicBreaker("four").getCircuitBreakerConfig());
    }
  }

  @State(Scope.Benchmark)
  public static class Resilience4jFailing extends Resilience4jBound {
    @Setup
    public void setUp() {
      RetryConfig twoAttempts =
          RetryConfig.custom().maxAttempts(Stacks.FAILING_MAX_ATTEMPTS).waitDuration(Duration.ZERO).build();
      // Its count window cannot count without opening (it opens once the window is full of
      // failures, and it holds one slot per call); a time window whose minimum is never reached can.
      CircuitBreakerConfig counting = Resilience4jBenchmarks.rateBreaker(Integer.MAX_VALUE);
      bind(new FailingTarget()::call, "failing", twoAttempts, counting);
      failOnce(call::get);
      long failures = breaker.getMetrics().getNumberOfFailedCalls();
      long exhausted = retry.getMetrics().getNumberOfFailedCallsWithRetryAttempt();
      if (failures != Stacks.FAILING_MAX_ATTEMPTS || exhausted != 1 || breaker.getState() != CircuitBreaker.State.CLOSED) {
        throw new IllegalStateException("a failing call should count " + Stacks.FAILING_MAX_ATTEMPTS
            + " failures, exhaust the retry once and leave the breaker closed; it counted " + failures
            + ", exhausted " + exhausted + " and the breaker is " + breaker.getState());
      }
    }
  }

  /**
   * The least an exact four-pattern stack with these meters can do, as {@link
   * DirectBenchmarks#floor} is without them: Brace's four patterns with metrics bound are read
   * against it (the target is to stay within 1.2 times of it).
   *
   * <ul>
   *   <li>Three clock reads: the call's start, before the retry and the breaker; the limiter's
   *       admission instant, which an exact limiter cannot skip (the floor's one read) and which
   *       also starts the attempt, since nothing between it and the attempt waits (the runtime
   *       already starts a timeout's deadline from it); and the outcome's instant, which ends both
   *       the attempt and the call, a call whose first attempt succeeds ending with it.
   *   <li>The floor's four compare-and-sets on shared counters ({@link FloorCounters}).
   *   <li>Exactly the meter updates {@link BraceMetrics} makes on a successful call today, found
   *       and checked by {@link SuccessMeters} when the trial starts: two {@code Timer.record(long,
   *       TimeUnit)}, the attempt's duration into {@code brace.attempts} ({@code outcome=success})
   *       and the call's into {@code brace.calls} ({@code kind=call}, {@code outcome=success}),
   *       on timers already registered and held, as a binding that resolves its meters once per
   *       call name would hold them: no lookup, no tags, no boxing per call.
   * </ul>
   */
  @Benchmark
  public String meteredFloor(MeteredFloor floor) {
    long started = System.nanoTime();
    floor.counters.retryAndBreaker();
    long admitted = System.nanoTime();
    floor.counters.limiterAndBulkhead(admitted);
    String result = floor.target.call();
    long ended = System.nanoTime();
    floor.attemptSucceeded.record(ended - admitted, TimeUnit.NANOSECONDS);
    floor.callSucceeded.record(ended - started, TimeUnit.NANOSECONDS);
    return result;
  }

  /**
   * {@link #meteredFloor} for a stack that follows its caller's deadline, as Brace's does by
   * default ({@link DirectBenchmarks#floorFollowingDeadline} is the bare one): the same, after one
   * thread-local read asking whether the thread is under a deadline.
   */
  @Benchmark
  public String meteredFloorFollowingDeadline(MeteredFloor floor) {
    if (Deadline.current().isPresent()) {
      throw new IllegalStateException("no deadline is open on a benchmark thread");
    }
    return meteredFloor(floor);
  }

  @Benchmark
  public String braceFourPatterns(BraceFourPatterns state) {
    return state.client.call();
  }

  @Benchmark
  public String resilience4jFourPatterns(Resilience4jFourPatterns state) {
    return state.call.get();
  }

  /** Returns the failure, so that any other outcome (a refusal, say) fails the run. */
  @Benchmark
  public Object braceFailing(BraceFailing state) {
    try {
      return state.client.call();
    } catch (FailingTarget.DependencyDown expected) {
      return expected;
    }
  }

  /** Returns the failure, so that any other outcome (a refusal, say) fails the run. */
  @Benchmark
  public Object resilience4jFailing(Resilience4jFailing state) {
    try {
      return state.call.get();
    } catch (FailingTarget.DependencyDown expected) {
      return expected;
    }
  }

  /** One call that must fail with the dependency's own failure. */
  private static void failOnce(Runnable call) {
    try {
      call.run();
    } catch (FailingTarget.DependencyDown expected) {
      return;
    }
    throw new IllegalStateException("the call to a dependency that is down returned normally");
  }
}
