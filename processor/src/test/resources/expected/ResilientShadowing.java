package p;

import dev.brace.Timeout;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.FallbackInvoker;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.io.IOException;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientShadowing implements Shadowing {
  private static final SlotInvoker DELEGATE_TO = ResilientShadowing::delegateTo;

  private static final FallbackInvoker FALL_BACK_TO = ResilientShadowing::fallBackTo;

  private static final java.util.function.Function<String, IOException> NEW_IO_EXCEPTION = IOException::new;

  private static final dev.brace.runtime.support.CallDefinition NAMES = dev.brace.runtime.support.CallDefinition.builder("Shadowing.names")
    .with(FallbackConfig.builder("Shadowing.names").on(IOException.class))
    .with(RetryConfig.builder("Shadowing.names").maxAttempts(2))
    .with(TimeoutConfig.builder("Shadowing.names").duration("1s").mode(Timeout.Mode.ABANDON))
    .fallbackTakes("none", IOException.class)
    .throwsTypes(IOException.class)
    .faultFactory(IOException.class, NEW_IO_EXCEPTION)
    .invokes(DELEGATE_TO, 0)
    .fallback(FALL_BACK_TO)
    .build();

  private static final dev.brace.runtime.support.CallDefinition DESCRIBE = dev.brace.runtime.support.CallDefinition.builder("ShadowingBase.describe")
    .with(RetryConfig.builder("ShadowingBase.describe"))
    .invokes(DELEGATE_TO, 1)
    .build();

  private final Shadowing delegate;

  private final ResilientCall names;

  private final ResilientCall describe;

  private ResilientShadowing(Shadowing delegate, dev.brace.runtime.Registry registry) {
    this.delegate = java.util.Objects.requireNonNull(delegate, "delegate");
    java.util.Objects.requireNonNull(registry, "registry");
    this.names = registry.resolve(NAMES);
    this.describe = registry.resolve(DESCRIBE);
  }

  public static Shadowing wrap(Shadowing delegate) {
    return wrap(delegate, dev.brace.runtime.Registry.defaultRegistry());
  }

  public static Shadowing wrap(Shadowing delegate, dev.brace.runtime.Registry registry) {
    return new ResilientShadowing(delegate, registry);
  }

  @java.lang.Override
  public java.util.List<String> names(Shadowing.Registry registry) throws IOException {
    return this.names.call(this.delegate, registry, null, null, null, 0L, 0L);
  }

  @java.lang.Override
  public String describe(String what) {
    long at = this.describe.instant();
    Object held = this.describe.admitNow(at);
    if (this.describe.admitted(held)) {
      try {
        String result = this.delegate.describe(what);
        this.describe.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.describe.failed(held, at, failure);
      }
    }
    return this.describe.staged(held, at, this.delegate, what, null, null, null, 0L, 0L);
  }

  @java.lang.Override
  public boolean equals(Object other) {
    return other == this || this.delegate.equals(other);
  }

  @java.lang.Override
  public int hashCode() {
    return this.delegate.hashCode();
  }

  @java.lang.Override
  public String toString() {
    return this.delegate.toString();
  }

  private static Object delegateTo(int method, Object target, Object a, Object b, Object c,
      Object d, long x, long y) throws Throwable {
    Shadowing delegate = (Shadowing) target;
    switch (method) {
      case 0:
        return delegate.names((Shadowing.Registry) a);
      case 1:
        return delegate.describe((String) a);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure)
      throws Throwable {
    Shadowing delegate = (Shadowing) target;
    switch (method) {
      case 0:
        return Shadowing.none((Shadowing.Registry) args.a(), (IOException) failure);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  /**
   * Lists Shadowing's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @java.lang.Override
    public Class<?> type() {
      return Shadowing.class;
    }

    @java.lang.Override
    public Class<?> wrapperType() {
      return ResilientShadowing.class;
    }

    @java.lang.Override
    public Object wrap(Object delegate, dev.brace.runtime.Registry registry) {
      return ResilientShadowing.wrap((Shadowing) delegate, registry);
    }
  }
}
