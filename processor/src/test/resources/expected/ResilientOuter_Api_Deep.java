package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientOuter_Api_Deep implements Outer.Api.Deep {
  private static final SlotInvoker DELEGATE_TO = ResilientOuter_Api_Deep::delegateTo;

  private static final CallDefinition RUN = CallDefinition.builder("Outer.Api.Deep.run")
    .with(TimeoutConfig.builder("Outer.Api.Deep.run").duration("1s"))
    .invokes(DELEGATE_TO, 0)
    .build();

  private final Outer.Api.Deep delegate;

  private final ResilientCall run;

  private ResilientOuter_Api_Deep(Outer.Api.Deep delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.run = registry.resolve(RUN);
  }

  public static Outer.Api.Deep wrap(Outer.Api.Deep delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Outer.Api.Deep wrap(Outer.Api.Deep delegate, Registry registry) {
    return new ResilientOuter_Api_Deep(delegate, registry);
  }

  @Override
  public void run() {
    this.run.call(this.delegate, null, null, null, null, 0L, 0L);
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
    Outer.Api.Deep delegate = (Outer.Api.Deep) target;
    switch (method) {
      case 0:
        delegate.run();
        return null;
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  /**
   * Lists Outer.Api.Deep's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Outer.Api.Deep.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientOuter_Api_Deep.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientOuter_Api_Deep.wrap((Outer.Api.Deep) delegate, registry);
    }
  }
}
