package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientDerived implements Derived {
  private static final SlotInvoker DELEGATE_TO = ResilientDerived::delegateTo;

  private static final CallDefinition COUNT = CallDefinition.builder("Derived.count")
    .with(BulkheadConfig.builder("Derived"))
    .invokes(DELEGATE_TO, 0)
    .build();

  private static final CallDefinition LOAD = CallDefinition.builder("Base.load")
    .with(RetryConfig.builder("Base.load"))
    .with(CircuitBreakerConfig.builder("base").declaredOnType("Base"))
    .invokes(DELEGATE_TO, 1)
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
    long at = this.count.instant();
    Object held = this.count.admitNow(at);
    if (this.count.admitted(held)) {
      try {
        int result = this.delegate.count();
        this.count.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.count.failed(held, at, failure);
      }
    }
    return this.count.staged(held, at, this.delegate, null, null, null, null, 0L, 0L);
  }

  @Override
  public void reset() {
    this.delegate.reset();
  }

  @Override
  public String load(String key) {
    long at = this.load.instant();
    Object held = this.load.admitNow(at);
    if (this.load.admitted(held)) {
      try {
        String result = this.delegate.load(key);
        this.load.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.load.failed(held, at, failure);
      }
    }
    return this.load.staged(held, at, this.delegate, key, null, null, null, 0L, 0L);
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
    Derived delegate = (Derived) target;
    switch (method) {
      case 0:
        return delegate.count();
      case 1:
        return delegate.load((String) a);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  /**
   * Lists Derived's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Derived.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientDerived.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientDerived.wrap((Derived) delegate, registry);
    }
  }
}
