package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.FallbackInvoker;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientClash implements Clash {
  private static final SlotInvoker DELEGATE_TO = ResilientClash::delegateTo;

  private static final FallbackInvoker FALL_BACK_TO = ResilientClash::fallBackTo;

  private static final CallDefinition CALL = CallDefinition.builder("Clash.call")
    .with(FallbackConfig.builder("Clash.call"))
    .with(RetryConfig.builder("Clash.call").onResult(new NotNull()))
    .with(TimeoutConfig.builder("Clash.call").duration("1s"))
    .invokes(DELEGATE_TO, 0)
    .fallback(FALL_BACK_TO)
    .build();

  private static final CallDefinition COUNT = CallDefinition.builder("Clash.count")
    .with(RetryConfig.builder("Clash.count"))
    .invokes(DELEGATE_TO, 1)
    .build();

  private final Clash delegate;

  private final ResilientCall call;

  private final ResilientCall count;

  private ResilientClash(Clash delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.call = registry.resolve(CALL);
    this.count = registry.resolve(COUNT);
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
    return this.call.call(this.delegate, new Object[] {delegate, registry, e, result, attempt, guard, failure, permit, run, started, fallbackFailure}, null, null, null, 0L, 0L);
  }

  @Override
  public int count(String at, String held, int result, Throwable failure, long at2) {
    long at3 = this.count.instant();
    Object held2 = this.count.admitNow(at3);
    if (this.count.admitted(held2)) {
      try {
        int result2 = this.delegate.count(at, held, result, failure, at2);
        this.count.succeeded(held2, at3);
        return result2;
      } catch (Throwable failure2) {
        held2 = this.count.failed(held2, at3, failure2);
      }
    }
    return this.count.staged(held2, at3, this.delegate, at, held, failure, null, result, at2);
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
    Clash delegate = (Clash) target;
    switch (method) {
      case 0:
        return delegate.call((String) ((Object[]) a)[0], (String) ((Object[]) a)[1], (Integer) ((Object[]) a)[2], (String) ((Object[]) a)[3], (Integer) ((Object[]) a)[4], ((Object[]) a)[5], (Exception) ((Object[]) a)[6], ((Object[]) a)[7], ((Object[]) a)[8], (Long) ((Object[]) a)[9], (String) ((Object[]) a)[10]);
      case 1:
        return delegate.count((String) a, (String) b, (int) x, (Throwable) c, y);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure)
      throws Throwable {
    Clash delegate = (Clash) target;
    switch (method) {
      case 0:
        return delegate.fallback((String) ((Object[]) args.a())[0], (String) ((Object[]) args.a())[1], (Integer) ((Object[]) args.a())[2], (String) ((Object[]) args.a())[3], (Integer) ((Object[]) args.a())[4], ((Object[]) args.a())[5], (Exception) ((Object[]) args.a())[6], ((Object[]) args.a())[7], ((Object[]) args.a())[8], (Long) ((Object[]) args.a())[9], (String) ((Object[]) args.a())[10], failure);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  /**
   * Lists Clash's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Clash.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientClash.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientClash.wrap((Clash) delegate, registry);
    }
  }
}
