package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientClash implements Clash {
  private static final CallDefinition CALL = CallDefinition.builder("Clash.call")
    .with(FallbackConfig.builder("Clash.call"))
    .with(RetryConfig.builder("Clash.call").onResult(new NotNull()))
    .with(TimeoutConfig.builder("Clash.call").duration("1s"))
    .build();

  private final Clash delegate;

  private final ResilientCall call;

  private ResilientClash(Clash delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.call = registry.resolve(CALL);
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
    ResilientCall call = this.call.current();
    if (call.passesThrough()) {
      return this.delegate.call(delegate, registry, e, result, attempt, guard, failure, permit, run, started, fallbackFailure);
    }
    CallKeys keys = CallKeys.NONE;
    long started_ = call.begin();
    Object run_ = null;
    try {
      for (int attempt_ = 1; ; attempt_++) {
        try {
          Object ticket = call.admit(keys);
          String result_;
          try {
            result_ = call.timed(() -> this.delegate.call(delegate, registry, e, result, attempt, guard, failure, permit, run, started, fallbackFailure));
          } catch (Throwable failure_) {
            call.attemptFailed(ticket, failure_);
            throw failure_;
          }
          call.attemptSucceeded(ticket, result_);
          run_ = call.retryResult(run_, attempt_, started_, result_);
          if (run_ == null) {
            return result_;
          }
        } catch (Throwable failure_) {
          run_ = call.retryOrThrow(run_, attempt_, started_, failure_);
        }
      }
    } catch (Throwable failure_) {
      Throwable cause = call.answerable(failure_);
      if (cause == null) {
        throw ResilientCall.rethrow(failure_);
      }
      try {
        return this.delegate.fallback(delegate, registry, e, result, attempt, guard, failure, permit, run, started, fallbackFailure, cause);
      } catch (Throwable fallbackFailure_) {
        throw call.fallbackFailed(fallbackFailure_, failure_);
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
