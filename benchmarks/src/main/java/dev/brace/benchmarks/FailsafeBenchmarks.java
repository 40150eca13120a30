package dev.brace.benchmarks;

import dev.failsafe.Bulkhead;
import dev.failsafe.CircuitBreaker;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.Fallback;
import dev.failsafe.RateLimiter;
import dev.failsafe.RetryPolicy;
import dev.failsafe.Timeout;
import dev.failsafe.function.CheckedSupplier;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The same stacks built with Failsafe: {@code Failsafe.with(outermost, …, innermost)}, the
 * executor and the supplier built once so only {@code get} is measured. The async stacks use
 * {@code getStageAsync} as Failsafe is normally used: every async execution, even one that needs
 * no delay, is submitted to its scheduler (the common pool), so those results include a thread
 * hop. Failsafe has no same-thread mode ({@code with(Executor)} still submits to the pool and only
 * runs the call through the executor there), so that hop is part of what Failsafe costs.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FailsafeBenchmarks {

  /** An executor and the call it runs, built once. */
  public abstract static class Executor {
    FailsafeExecutor<String> executor;
    final CheckedSupplier<String> call = new Target()::call;

    String get() {
      return executor.get(call);
    }
  }

  /** An executor and the asynchronous call it runs, built once. */
  public abstract static class AsyncExecutor {
    FailsafeExecutor<String> executor;
    final CheckedSupplier<CompletionStage<String>> call = new AsyncTarget()::call;

    String get() {
      return executor.getStageAsync(call).join();
    }
  }

  @State(Scope.Benchmark)
  public static class AsyncRetryState extends AsyncExecutor {
    @Setup
    public void setUp() {
      executor = Failsafe.with(retry());
    }
  }

  @State(Scope.Benchmark)
  public static class AsyncFourPatternsState extends AsyncExecutor {
    @Setup
    public void setUp() {
      executor = Failsafe.with(retry(), classicBreaker(), limiter(), bulkhead());
    }
  }

  @State(Scope.Benchmark)
  public static class RetryState extends Executor {
    @Setup
    public void setUp() {
      executor = Failsafe.with(retry());
    }
  }

  @State(Scope.Benchmark)
  public static class BreakerClassicState extends Executor {
    @Setup
    public void setUp() {
      executor = Failsafe.with(classicBreaker());
    }
  }

  @State(Scope.Benchmark)
  public static class BreakerRateState extends Executor {
    @Setup
    public void setUp() {
      CircuitBreaker<String> breaker =
          CircuitBreaker.<String>builder()
              .withFailureRateThreshold((int) (Stacks.FAILURE_RATE * 100), Stacks.MINIMUM_CALLS, Stacks.WINDOW)
              .withDelay(Stacks.RESET_TIMEOUT)
              .build();
      executor = Failsafe.with(breaker);
    }
  }

  @State(Scope.Benchmark)
  public static class LimiterState extends Executor {
    @Setup
    public void setUp() {
      executor = Failsafe.with(limiter());
    }
  }

  @State(Scope.Benchmark)
  public static class BulkheadState extends Executor {
    @Setup
    public void setUp() {
      executor = Failsafe.with(bulkhead());
    }
  }

  @State(Scope.Benchmark)
  public static class TimeoutState extends Executor {
    @Setup
    public void setUp() {
      executor = Failsafe.with(timeout());
    }
  }

  @State(Scope.Benchmark)
  public static class FourPatternsState extends Executor {
    @Setup
    public void setUp() {
      executor = Failsafe.with(retry(), classicBreaker(), limiter(), bulkhead());
    }
  }

  @State(Scope.Benchmark)
  public static class SixPatternsState extends Executor {
    @Setup
    public void setUp() {
      executor =
          Failsafe.with(
              Fallback.of(Stacks.FALLBACK_VALUE), retry(), classicBreaker(), limiter(), bulkhead(), timeout());
    }
  }

  @Benchmark
  public String retry(RetryState state) {
    return state.get();
  }

  @Benchmark
  public String breakerClassic(BreakerClassicState state) {
    return state.get();
  }

  @Benchmark
  public String breakerRate(BreakerRateState state) {
    return state.get();
  }

  @Benchmark
  public String limiter(LimiterState state) {
    return state.get();
  }

  @Benchmark
  public String bulkhead(BulkheadState state) {
    return state.get();
  }

  @Benchmark
  public String timeout(TimeoutState state) {
    return state.get();
  }

  @Benchmark
  public String fourPatterns(FourPatternsState state) {
    return state.get();
  }

  @Benchmark
  public String sixPatterns(SixPatternsState state) {
    return state.get();
  }

  @Benchmark
  public String retryAsync(AsyncRetryState state) {
    return state.get();
  }

  @Benchmark
  public String fourPatternsAsync(AsyncFourPatternsState state) {
    return state.get();
  }

  static RetryPolicy<String> retry() {
    return RetryPolicy.<String>builder().withMaxAttempts(Stacks.MAX_ATTEMPTS).withDelay(Stacks.RETRY_DELAY).build();
  }

  /** Failsafe's count threshold is consecutive failures, like Brace's classic mode. */
  static CircuitBreaker<String> classicBreaker() {
    return CircuitBreaker.<String>builder()
        .withFailureThreshold(Stacks.FAILURE_THRESHOLD)
        .withDelay(Stacks.RESET_TIMEOUT)
        .build();
  }

  static RateLimiter<String> limiter() {
    return RateLimiter.<String>burstyBuilder(Stacks.PERMITS_PER_SECOND, Duration.ofSeconds(1))
        .withMaxWaitTime(Duration.ZERO)
        .build();
  }

  static Bulkhead<String> bulkhead() {
    return Bulkhead.<String>builder(Stacks.MAX_CONCURRENT).withMaxWaitTime(Duration.ZERO).build();
  }

  static Timeout<String> timeout() {
    return Timeout.<String>builder(Stacks.TIMEOUT).withInterrupt().build();
  }
}
