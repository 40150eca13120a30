package p;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.io.IOException;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientCatalog implements Catalog {
  private static final CallDefinition FIND = CallDefinition.builder("Catalog.find")
    .retry(RetryConfig.builder("Catalog.find").maxAttempts(5).delay("10ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.NONE).maxDuration("").on(Exception.class).ignore().onResult(new Catalog.IsEmpty()).budget("").maxRetryAfter("60s"))
    .circuitBreaker(CircuitBreakerConfig.builder("catalog-db").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.5).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().onResult(new Catalog.IsEmpty()).key("").maxKeys(10000))
    .build();

  private static final CallDefinition SAVE = CallDefinition.builder("Catalog.save")
    .fallback(FallbackConfig.builder("Catalog.save").on(IOException.class).ignore())
    .retry(RetryConfig.builder("Catalog.save").maxAttempts(2).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .circuitBreaker(CircuitBreakerConfig.builder("Catalog").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.0).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().key("").maxKeys(10000))
    .timeout(TimeoutConfig.builder("Catalog.save").duration("250ms").mode(Timeout.Mode.ABANDON))
    .build();

  private static final CallDefinition SIZE = CallDefinition.builder("Catalog.size")
    .retry(RetryConfig.builder("Catalog.size").maxAttempts(2).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .circuitBreaker(CircuitBreakerConfig.builder("Catalog").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.0).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().key("").maxKeys(10000))
    .build();

  private final Catalog delegate;

  private final CallGuard findGuard;

  private final CallGuard saveGuard;

  private final CallGuard sizeGuard;

  private ResilientCatalog(Catalog delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.findGuard = registry.guard(FIND);
    this.saveGuard = registry.guard(SAVE);
    this.sizeGuard = registry.guard(SIZE);
  }

  public static Catalog wrap(Catalog delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Catalog wrap(Catalog delegate, Registry registry) {
    return new ResilientCatalog(delegate, registry);
  }

  @Override
  public String find(String id) {
    CallGuard guard = this.findGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          String result;
          try {
            result = this.delegate.find(id);
          } catch (Throwable failure) {
            guard.attemptFailed(permit, failure);
            throw failure;
          }
          guard.attemptSucceeded(permit, result);
          run = guard.retryResult(run, attempt, started, result);
          if (run == null) {
            return result;
          }
        } catch (Throwable failure) {
          run = guard.retryOrThrow(run, attempt, started, failure);
        }
      }
    } catch (Throwable failure) {
      throw Failures.rethrow(failure);
    }
  }

  @Override
  public void save(String id) throws IOException {
    CallGuard guard = this.saveGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          try {
            guard.timed(() -> {
                  this.delegate.save(id);
                  return null;
                });
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
      if (!guard.fallsBack(failure)) {
        throw Failures.rethrow(failure);
      }
      try {
        Catalog.ignoreSave(id, (IOException) failure);
        return;
      } catch (Throwable fallbackFailure) {
        throw guard.fallbackFailed(fallbackFailure, failure);
      }
    }
  }

  @Override
  public long size() {
    CallGuard guard = this.sizeGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          long result;
          try {
            result = this.delegate.size();
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
