package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
final class ResilientBase<E> implements Base<E> {
  private static final SlotInvoker DELEGATE_TO = ResilientBase::delegateTo;

  private static final CircuitBreakerConfig.Builder CIRCUITBREAKER_BASE = CircuitBreakerConfig.builder("base").declaredOnType("Base");

  private static final CallDefinition LOAD = CallDefinition.builder("Base.load")
    .with(RetryConfig.builder("Base.load"))
    .with(CIRCUITBREAKER_BASE)
    .invokes(DELEGATE_TO, 0)
    .build();

  private static final CallDefinition RESET = CallDefinition.builder("Base.reset")
    .with(CIRCUITBREAKER_BASE)
    .invokes(DELEGATE_TO, 1)
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
    long at = this.load.instant();
    Object held = this.load.admitNow(at);
    if (this.load.admitted(held)) {
      try {
        E result = this.delegate.load(key);
        this.load.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.load.failed(held, at, failure);
      }
    }
    return this.load.staged(held, at, this.delegate, key, null, null, null, 0L, 0L);
  }

  @Override
  public void reset() {
    long at = this.reset.instant();
    Object held = this.reset.admitNow(at);
    if (this.reset.admitted(held)) {
      try {
        this.delegate.reset();
        this.reset.succeeded(held, at);
        return;
      } catch (Throwable failure) {
        held = this.reset.failed(held, at, failure);
      }
    }
    this.reset.staged(held, at, this.delegate, null, null, null, null, 0L, 0L);
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

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object delegateTo(int method, Object target, Object a, Object b, Object c,
      Object d, long x, long y) throws Throwable {
    Base delegate = (Base) target;
    switch (method) {
      case 0:
        return delegate.load((String) a);
      case 1:
        delegate.reset();
        return null;
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  /**
   * Lists Base's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Base.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientBase.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientBase.wrap((Base<?>) delegate, registry);
    }
  }
}
