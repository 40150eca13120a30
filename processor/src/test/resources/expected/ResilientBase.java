package p;

import dev.brace.Retry;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
final class ResilientBase<E> implements Base<E> {
  private static final CallDefinition LOAD = CallDefinition.builder("Base.load")
    .retry(RetryConfig.builder("Base.load").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .circuitBreaker(CircuitBreakerConfig.builder("base").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.0).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().key("").maxKeys(10000))
    .build();

  private static final CallDefinition RESET = CallDefinition.builder("Base.reset")
    .circuitBreaker(CircuitBreakerConfig.builder("base").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.0).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().key("").maxKeys(10000))
    .build();

  private final Base<E> delegate;

  private final CallGuard loadGuard;

  private final CallGuard resetGuard;

  private ResilientBase(Base<E> delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.loadGuard = registry.guard(LOAD);
    this.resetGuard = registry.guard(RESET);
  }

  public static <E> Base<E> wrap(Base<E> delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static <E> Base<E> wrap(Base<E> delegate, Registry registry) {
    return new ResilientBase<>(delegate, registry);
  }

  @Override
  public E load(String key) {
    CallGuard guard = this.loadGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          E result;
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
  public void reset() {
    CallGuard guard = this.resetGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          try {
            this.delegate.reset();
          } catch (Throwable failure) {
            guard.attemptFailed(permit, failure);
            throw failure;
          }
          guard.attemptSucceeded(permit);
          return;
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
