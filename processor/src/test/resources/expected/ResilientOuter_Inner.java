package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
final class ResilientOuter_Inner implements Outer.Inner {
  private static final SlotInvoker DELEGATE_TO = ResilientOuter_Inner::delegateTo;

  private static final CallDefinition PING = CallDefinition.builder("Outer.Inner.ping")
    .with(BulkheadConfig.builder("Outer.Inner"))
    .invokes(DELEGATE_TO, 0)
    .build();

  private final Outer.Inner delegate;

  private final ResilientCall ping;

  private ResilientOuter_Inner(Outer.Inner delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.ping = registry.resolve(PING);
  }

  public static Outer.Inner wrap(Outer.Inner delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Outer.Inner wrap(Outer.Inner delegate, Registry registry) {
    return new ResilientOuter_Inner(delegate, registry);
  }

  @Override
  public String ping() {
    long at = this.ping.instant();
    Object held = this.ping.admitNow(at);
    if (this.ping.admitted(held)) {
      try {
        String result = this.delegate.ping();
        this.ping.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.ping.failed(held, at, failure);
      }
    }
    return this.ping.staged(held, at, this.delegate, null, null, null, null, 0L, 0L);
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
    Outer.Inner delegate = (Outer.Inner) target;
    switch (method) {
      case 0:
        return delegate.ping();
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  /**
   * Lists Outer.Inner's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Outer.Inner.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientOuter_Inner.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientOuter_Inner.wrap((Outer.Inner) delegate, registry);
    }
  }
}
