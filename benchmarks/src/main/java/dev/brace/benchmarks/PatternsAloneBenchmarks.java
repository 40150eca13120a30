package dev.brace.benchmarks;

import dev.brace.Criticality;
import dev.brace.runtime.Registry;
import dev.brace.runtime.spi.BulkheadInstance;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.OutcomeClassifier;
import dev.brace.runtime.spi.RateLimiterInstance;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The four-pattern stack's own work with no driver: the very breaker, limiter and bulkhead a
 * registry resolved for {@link BraceClients.FourPatterns}, called in straight line around the
 * target as the attempt pipeline calls them on a happy attempt (the breaker's ticket, one clock
 * read the limiter admits at, a permit, the call, the permit back, the breaker's outcome). It is
 * to {@code BraceBenchmarks.fourPatterns} what the patterns cost is to what the call costs: the
 * difference between the two rows is everything the driver, the call frame and the pipeline's
 * bookkeeping add, which {@code floor} cannot show because its counters are not the patterns.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class PatternsAloneBenchmarks {
  private final Target target = new Target();
  private CircuitBreakerInstance breaker;
  private RateLimiterInstance limiter;
  private BulkheadInstance bulkhead;

  @Setup
  public void setUp() {
    Registry registry = Registry.builder().build();
    // Wrapping resolves the stack's instances, which the registry then hands out by name.
    ResilientBraceClients_FourPatterns.wrap(new Target(), registry);
    breaker = (CircuitBreakerInstance) registry.circuitBreaker("bench-four");
    limiter = (RateLimiterInstance) registry.rateLimiter("bench-four");
    bulkhead = (BulkheadInstance) registry.bulkhead("bench-four");
  }

  @Benchmark
  public String patternsAlone() {
    Object ticket = breaker.acquire();
    long now = System.nanoTime();
    long reservation = limiter.reserveTokenAt(now);
    if (reservation - now > 0) {
      limiter.cancelReservation(reservation);
      breaker.release(ticket);
      throw new IllegalStateException("the limiter of 10^9 per second made a call wait");
    }
    if (!bulkhead.takeNow(Criticality.Level.CRITICAL)) {
      breaker.release(ticket);
      throw new IllegalStateException("the bulkhead of 10 was full");
    }
    String result;
    try {
      result = target.call();
    } finally {
      bulkhead.release();
    }
    breaker.onResult(ticket, result, OutcomeClassifier.NOT_TIMED);
    return result;
  }
}
