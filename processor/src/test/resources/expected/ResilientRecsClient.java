package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientRecsClient implements RecsClient {
  private static final CallDefinition RECOMMENDATIONS = CallDefinition.builder("RecsClient.recommendations")
    .with(FallbackConfig.builder("RecsClient.recommendations"))
    .with(RetryConfig.builder("RecsClient.recommendations").maxAttempts(3).delay("100ms").on(IOException.class))
    .with(CircuitBreakerConfig.builder("recs-api"))
    .with(RateLimitConfig.builder("recs-api").permits(20).per("1s").key("user:{userId}"))
    .with(BulkheadConfig.builder("recs-api").maxConcurrent(10))
    .with(TimeoutConfig.builder("RecsClient.recommendations").duration("1s"))
    .fallbackTakes("noRecs", Exception.class)
    .build();

  private static final CallDefinition COUNT = CallDefinition.builder("RecsClient.count")
    .with(CircuitBreakerConfig.builder("recs-api"))
    .build();

  private final RecsClient delegate;

  private final ResilientCall recommendations;

  private final ResilientCall count;

  private ResilientRecsClient(RecsClient delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.recommendations = registry.resolve(RECOMMENDATIONS);
    this.count = registry.resolve(COUNT);
  }

  public static RecsClient wrap(RecsClient delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static RecsClient wrap(RecsClient delegate, Registry registry) {
    return new ResilientRecsClient(delegate, registry);
  }

  @Override
  public List<String> recommendations(String userId) throws IOException {
    ResilientCall call = this.recommendations.current();
    if (call.passesThrough()) {
      return this.delegate.recommendations(userId);
    }
    CallKeys keys = CallKeys.of(null, "user:" + CallKeys.part(userId, "userId", "RecsClient.recommendations"));
    long started = call.begin();
    Object run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object ticket = call.admit(keys);
          List<String> result;
          try {
            result = call.timed(() -> this.delegate.recommendations(userId));
          } catch (Throwable failure) {
            call.attemptFailed(ticket, failure);
            throw failure;
          }
          call.attemptSucceeded(ticket, result);
          run = call.retryResult(run, attempt, started, result);
          if (run == null) {
            return result;
          }
        } catch (Throwable failure) {
          run = call.retryOrThrow(run, attempt, started, failure);
        }
      }
    } catch (Throwable failure) {
      Throwable cause = call.answerable(failure);
      if (cause == null) {
        throw ResilientCall.rethrow(failure);
      }
      try {
        return this.delegate.noRecs(userId, (Exception) cause);
      } catch (Throwable fallbackFailure) {
        throw call.fallbackFailed(fallbackFailure, failure);
      }
    }
  }

  @Override
  public int count() {
    ResilientCall call = this.count.current();
    if (call.passesThrough()) {
      return this.delegate.count();
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        int result;
        try {
          result = this.delegate.count();
        } catch (Throwable failure) {
          call.attemptFailed(ticket, failure);
          throw failure;
        }
        call.attemptSucceeded(ticket, result);
        run = call.retryResult(run, attempt, started, result);
        if (run == null) {
          return result;
        }
      } catch (Throwable failure) {
        run = call.retryOrThrow(run, attempt, started, failure);
      }
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
