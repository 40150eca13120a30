package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
final class ResilientBase<E> implements Base<E> {
  private static final CallDefinition LOAD = CallDefinition.builder("Base.load")
    .with(RetryConfig.builder("Base.load"))
    .with(CircuitBreakerConfig.builder("base"))
    .build();

  private static final CallDefinition RESET = CallDefinition.builder("Base.reset")
    .with(CircuitBreakerConfig.builder("base"))
    .build();

  private final Base<E> delegate;

  private final ResilientCall load;

  private final ResilientCall reset;

  private ResilientBase(Base<E> delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.load = registry.resolve(LOAD);
    this.reset = registry.resolve(RESET);
  }

  public static <E> Base<E> wrap(Base<E> delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static <E> Base<E> wrap(Base<E> delegate, Registry registry) {
    return new ResilientBase<>(delegate, registry);
  }

  @Override
  public E load(String key) {
    ResilientCall call = this.load.current();
    if (call.passesThrough()) {
      return this.delegate.load(key);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        E result;
        try {
          result = this.delegate.load(key);
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
  public void reset() {
    ResilientCall call = this.reset.current();
    if (call.passesThrough()) {
      this.delegate.reset();
      return;
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        try {
          this.delegate.reset();
        } catch (Throwable failure) {
          call.attemptFailed(ticket, failure);
          throw failure;
        }
        call.attemptSucceeded(ticket, null);
        run = call.retryResult(run, attempt, started, null);
        if (run == null) {
          return;
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
