package dev.brace.benchmarks;

import dev.brace.micrometer.BraceMetrics;
import dev.brace.runtime.Registry;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedRateLimiterMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedRetryMetrics;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The four-pattern stack with metrics bound, each library through its own Micrometer binding on a
 * {@link SimpleMeterRegistry}: {@code brace-micrometer}'s {@link BraceMetrics} (a timer sample
 * per attempt and per call) and {@code resilience4j-micrometer}'s tagged binders. The same stacks
 * without metrics are {@link BraceBenchmarks#fourPatterns} and {@link Resilience4jBenchmarks#fourPatterns}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MetricsBenchmarks {

  @State(Scope.Benchmark)
  public static class BraceState {
    BraceClients.FourPatterns client;
    AutoCloseable binding;

    @Setup
    public void setUp() {
      Registry registry = Registry.builder().build();
      binding = BraceMetrics.bind(registry, new SimpleMeterRegistry());
      client = ResilientBraceClients_FourPatterns.wrap(new Target(), registry);
    }

    @TearDown
    public void tearDown() throws Exception {
      binding.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Resilience4jState {
    Supplier<String> call;

    @Setup
    public void setUp() {
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      // Instances made through registries, as the binders publish a registry's instances.
      RetryRegistry retries = RetryRegistry.ofDefaults();
      CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
      RateLimiterRegistry limiters = RateLimiterRegistry.ofDefaults();
      BulkheadRegistry bulkheads = BulkheadRegistry.ofDefaults();
      TaggedRetryMetrics.ofRetryRegistry(retries).bindTo(meters);
      TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(meters);
      TaggedRateLimiterMetrics.ofRateLimiterRegistry(limiters).bindTo(meters);
      TaggedBulkheadMetrics.ofBulkheadRegistry(bulkheads).bindTo(meters);
      Retry retry = retries.retry("four", Resilience4jBenchmarks.retry("four").getRetryConfig());
      CircuitBreaker breaker =
          breakers.circuitBreaker("four", Resilience4jBenchmarks.classicBreaker("four").getCircuitBreakerConfig());
      RateLimiter limiter = limiters.rateLimiter("four", Resilience4jBenchmarks.limiter("four").getRateLimiterConfig());
      Bulkhead bulkhead = bulkheads.bulkhead("four", Resilience4jBenchmarks.bulkhead("four").getBulkheadConfig());
      call = Resilience4jBenchmarks.fourPatterns(bulkhead, limiter, breaker, retry);
    }
  }

  @Benchmark
  public String braceFourPatternsWithMetrics(BraceState state) {
    return state.client.call();
  }

  @Benchmark
  public String resilience4jFourPatternsWithMetrics(Resilience4jState state) {
    return state.call.get();
  }
}
