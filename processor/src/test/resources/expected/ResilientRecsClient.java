package p;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.generated.Keys;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientRecsClient implements RecsClient {
  private static final CallDefinition RECOMMENDATIONS = CallDefinition.builder("RecsClient.recommendations")
    .fallback(FallbackConfig.builder("RecsClient.recommendations").on(Exception.class).ignore())
    .retry(RetryConfig.builder("RecsClient.recommendations").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(IOException.class).ignore().budget("").maxRetryAfter("60s"))
    .circuitBreaker(CircuitBreakerConfig.builder("recs-api").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.0).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().key("").maxKeys(10000))
    .rateLimit(RateLimitConfig.builder("recs-api").permits(20).per("1s").burst(0).maxWait("0ms").key("user:{userId}").maxKeys(10000))
    .bulkhead(BulkheadConfig.builder("recs-api").maxConcurrent(10).maxWait("0ms"))
    .timeout(TimeoutConfig.builder("RecsClient.recommendations").duration("1s").mode(Timeout.Mode.INTERRUPT))
    .build();

  private static final CallDefinition COUNT = CallDefinition.builder("RecsClient.count")
    .circuitBreaker(CircuitBreakerConfig.builder("recs-api").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.0).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().key("").maxKeys(10000))
    .build();

  private final RecsClient delegate;

  private final CallGuard recommendationsGuard;

  private final CallGuard countGuard;

  private ResilientRecsClient(RecsClient delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.recommendationsGuard = registry.guard(RECOMMENDATIONS);
    this.countGuard = registry.guard(COUNT);
  }

  public static RecsClient wrap(RecsClient delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static RecsClient wrap(RecsClient delegate, Registry registry) {
    return new ResilientRecsClient(delegate, registry);
  }

  @Override
  public List<String> recommendations(String userId) throws IOException {
    CallGuard guard = this.recommendationsGuard;
    String breakerKey = null;
    String limiterKey = "user:" + Keys.part(userId, "userId", "RecsClient.recommendations");
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit(breakerKey, limiterKey);
          List<String> result;
          try {
            result = guard.timed(() -> this.delegate.recommendations(userId));
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
      if (!guard.fallsBack(failure)) {
        throw Failures.rethrow(failure);
      }
      try {
        return this.delegate.noRecs(userId, (Exception) failure);
      } catch (Throwable fallbackFailure) {
        throw guard.fallbackFailed(fallbackFailure, failure);
      }
    }
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
