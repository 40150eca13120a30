package p;

import dev.brace.Bulkhead;
import dev.brace.Criticality;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientShedding implements Shedding {
  private static final SlotInvoker DELEGATE_TO = ResilientShedding::delegateTo;

  private static final BulkheadConfig.Builder BULKHEAD_SEARCH = BulkheadConfig.builder("search").maxConcurrent(40).maxWait("10ms").adaptive(Bulkhead.Adaptive.GRADIENT2).minConcurrent(4).declaredOnType("Shedding");

  private static final CallDefinition SUGGESTIONS = CallDefinition.builder("Shedding.suggestions")
    .with(BULKHEAD_SEARCH)
    .criticality(Criticality.Level.SHEDDABLE)
    .invokes(DELEGATE_TO, 0)
    .build();

  private static final CallDefinition CHECKOUT = CallDefinition.builder("Shedding.checkout")
    .with(RateLimitConfig.builder("Shedding").permits(100).adaptive(true).throttledOn(IllegalStateException.class).decrease(0.7))
    .with(BULKHEAD_SEARCH)
    .criticality(Criticality.Level.CRITICAL)
    .invokes(DELEGATE_TO, 1)
    .build();

  private static final CallDefinition RECENT = CallDefinition.builder("Shedding.recent")
    .with(BULKHEAD_SEARCH)
    .criticality(Criticality.Level.SHEDDABLE)
    .invokes(DELEGATE_TO, 2)
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
    long at = this.suggestions.instant();
    Object held = this.suggestions.admitNow(at);
    if (this.suggestions.admitted(held)) {
      try {
        String result = this.delegate.suggestions(prefix);
        this.suggestions.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.suggestions.failed(held, at, failure);
      }
    }
    return this.suggestions.staged(held, at, this.delegate, prefix, null, null, null, 0L, 0L);
  }

  @Override
  public String checkout(String cart) {
    long at = this.checkout.instant();
    Object held = this.checkout.admitNow(at);
    if (this.checkout.admitted(held)) {
      try {
        String result = this.delegate.checkout(cart);
        this.checkout.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.checkout.failed(held, at, failure);
      }
    }
    return this.checkout.staged(held, at, this.delegate, cart, null, null, null, 0L, 0L);
  }

  @Override
  public CompletableFuture<String> recent() {
    return this.recent.callAsync(this.delegate, null, null, null, null, 0L, 0L);
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

  private static Object delegateTo(int method, Object target, Object a, Object b, Object c,
      Object d, long x, long y) throws Throwable {
    Shedding delegate = (Shedding) target;
    switch (method) {
      case 0:
        return delegate.suggestions((String) a);
      case 1:
        return delegate.checkout((String) a);
      case 2:
        return delegate.recent();
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  /**
   * Lists Shedding's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Shedding.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientShedding.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientShedding.wrap((Shedding) delegate, registry);
    }
  }
}
