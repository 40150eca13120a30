package p;

import dev.brace.Bulkhead;
import dev.brace.Criticality;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientShedding implements Shedding {
  private static final CallDefinition SUGGESTIONS = CallDefinition.builder("Shedding.suggestions")
    .with(BulkheadConfig.builder("search").maxConcurrent(40).maxWait("10ms").adaptive(Bulkhead.Adaptive.GRADIENT2).minConcurrent(4))
    .criticality(Criticality.Level.SHEDDABLE)
    .build();

  private static final CallDefinition CHECKOUT = CallDefinition.builder("Shedding.checkout")
    .with(RateLimitConfig.builder("Shedding").permits(100).adaptive(true).throttledOn(IllegalStateException.class).decrease(0.7))
    .with(BulkheadConfig.builder("search").maxConcurrent(40).maxWait("10ms").adaptive(Bulkhead.Adaptive.GRADIENT2).minConcurrent(4))
    .criticality(Criticality.Level.CRITICAL)
    .build();

  private static final CallDefinition RECENT = CallDefinition.builder("Shedding.recent")
    .with(BulkheadConfig.builder("search").maxConcurrent(40).maxWait("10ms").adaptive(Bulkhead.Adaptive.GRADIENT2).minConcurrent(4))
    .criticality(Criticality.Level.SHEDDABLE)
    .build();

  private final Shedding delegate;

  private final ResilientCall suggestions;

  private final ResilientCall checkout;

  private final ResilientCall recent;

  private ResilientShedding(Shedding delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.suggestions = registry.resolve(SUGGESTIONS);
    this.checkout = registry.resolve(CHECKOUT);
    this.recent = registry.resolve(RECENT);
  }

  public static Shedding wrap(Shedding delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Shedding wrap(Shedding delegate, Registry registry) {
    return new ResilientShedding(delegate, registry);
  }

  @Override
  public String suggestions(String prefix) {
    ResilientCall call = this.suggestions.current();
    if (call.passesThrough()) {
      return this.delegate.suggestions(prefix);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        String result;
        try {
          result = this.delegate.suggestions(prefix);
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
  public String checkout(String cart) {
    ResilientCall call = this.checkout.current();
    if (call.passesThrough()) {
      return this.delegate.checkout(cart);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        String result;
        try {
          result = this.delegate.checkout(cart);
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
  public CompletableFuture<String> recent() {
    return this.recent.callAsync(
        () -> this.delegate.recent(),
        null);
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
