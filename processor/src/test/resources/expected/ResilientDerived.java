package p;

import dev.brace.Retry;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientDerived implements Derived {
  private static final CallDefinition COUNT = CallDefinition.builder("Derived.count")
    .bulkhead(BulkheadConfig.builder("Derived").maxConcurrent(10).maxWait("0ms"))
    .build();

  private static final CallDefinition LOAD = CallDefinition.builder("Base.load")
    .retry(RetryConfig.builder("Base.load").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .circuitBreaker(CircuitBreakerConfig.builder("base").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.0).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().key("").maxKeys(10000))
    .build();

  private final Derived delegate;

  private final CallGuard countGuard;

  private final CallGuard loadGuard;

  private ResilientDerived(Derived delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.countGuard = registry.guard(COUNT);
    this.loadGuard = registry.guard(LOAD);
  }

  public static Derived wrap(Derived delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Derived wrap(Derived delegate, Registry registry) {
    return new ResilientDerived(delegate, registry);
  }

  @Override
  public int count() {
    CallGuard guard = this.countGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          int result;
          try {
            result = this.delegate.count();
          } catch (Throwable failure) {
            guard.attemptFailed(permit, failure);
            throw failure;
          }
          guard.attemptSucceeded(permit);
          return result;
        } catch (Throwable failure) {
          run = guard.retryOrThrow(run, attempt, started, failure);
        }
      }
    } catch (Throwable failure) {
      throw Failures.rethrow(failure);
    }
  }

  @Override
  public void reset() {
    this.delegate.reset();
  }

  @Override
  public String load(String key) {
    CallGuard guard = this.loadGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          String result;
          try {
            result = this.delegate.load(key);
          } catch (Throwable failure) {
            guard.attemptFailed(permit, failure);
            throw failure;
          }
          guard.attemptSucceeded(permit);
          return result;
        } catch (Throwable failure) {
          run = guard.retryOrThrow(run, attempt, started, failure);
        }
      }
    } catch (Throwable failure) {
      throw Failures.rethrow(failure);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other == this || this.delegate.equals(other);
  }

  @Override
  public int hashCode() {
    return this.delegate.hashCode();
  }

  @Override
  public String toString() {
    return this.delegate.toString();
  }
}
