package p;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientClash implements Clash {
  private static final CallDefinition CALL = CallDefinition.builder("Clash.call")
    .fallback(FallbackConfig.builder("Clash.call").on(Exception.class).ignore())
    .retry(RetryConfig.builder("Clash.call").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().onResult(new NotNull()).budget("").maxRetryAfter("60s"))
    .timeout(TimeoutConfig.builder("Clash.call").duration("1s").mode(Timeout.Mode.INTERRUPT))
    .build();

  private final Clash delegate;

  private final CallGuard callGuard;

  private ResilientClash(Clash delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.callGuard = registry.guard(CALL);
  }

  public static Clash wrap(Clash delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Clash wrap(Clash delegate, Registry registry) {
    return new ResilientClash(delegate, registry);
  }

  @Override
  public String call(String delegate, String registry, int e, String result, int attempt,
      Object guard, Exception failure, Object permit, Object run, long started,
      String fallbackFailure) {
    CallGuard guard_ = this.callGuard;
    long started_ = guard_.begin();
    RetryRun run_ = null;
    try {
      for (int attempt_ = 1; ; attempt_++) {
        try {
          Object permit_ = guard_.admit();
          String result_;
          try {
            result_ = guard_.timed(() -> this.delegate.call(delegate, registry, e, result, attempt, guard, failure, permit, run, started, fallbackFailure));
          } catch (Throwable failure_) {
            guard_.attemptFailed(permit_, failure_);
            throw failure_;
          }
          guard_.attemptSucceeded(permit_);
          run_ = guard_.retryResult(run_, attempt_, started_, result_);
          if (run_ == null) {
            return result_;
          }
        } catch (Throwable failure_) {
          run_ = guard_.retryOrThrow(run_, attempt_, started_, failure_);
        }
      }
    } catch (Throwable failure_) {
      if (!guard_.fallsBack(failure_)) {
        throw Failures.rethrow(failure_);
      }
      try {
        return this.delegate.fallback(delegate, registry, e, result, attempt, guard, failure, permit, run, started, fallbackFailure, failure_);
      } catch (Throwable fallbackFailure_) {
        throw guard_.fallbackFailed(fallbackFailure_, failure_);
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
