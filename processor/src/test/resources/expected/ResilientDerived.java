package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientDerived implements Derived {
  private static final CallDefinition COUNT = CallDefinition.builder("Derived.count")
    .with(BulkheadConfig.builder("Derived"))
    .build();

  private static final CallDefinition LOAD = CallDefinition.builder("Base.load")
    .with(RetryConfig.builder("Base.load"))
    .with(CircuitBreakerConfig.builder("base"))
    .build();

  private final Derived delegate;

  private final ResilientCall count;

  private final ResilientCall load;

  private ResilientDerived(Derived delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.count = registry.resolve(COUNT);
    this.load = registry.resolve(LOAD);
  }

  public static Derived wrap(Derived delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Derived wrap(Derived delegate, Registry registry) {
    return new ResilientDerived(delegate, registry);
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
  public void reset() {
    this.delegate.reset();
  }

  @Override
  public String load(String key) {
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
        String result;
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
