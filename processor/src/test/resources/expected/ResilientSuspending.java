package p;

import dev.brace.kotlin.CoroutineCalls;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.FallbackInvoker;
import dev.brace.runtime.support.KeysOf;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.io.IOException;
import java.util.Objects;
import javax.annotation.processing.Generated;
import kotlin.Unit;
import kotlin.coroutines.Continuation;
import kotlinx.coroutines.flow.Flow;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientSuspending implements Suspending {
  private static final SlotInvoker DELEGATE_TO = ResilientSuspending::delegateTo;

  private static final FallbackInvoker FALL_BACK_TO = ResilientSuspending::fallBackTo;

  private static final KeysOf KEYS_OF = ResilientSuspending::keysOf;

  private static final CallDefinition ITEM = CallDefinition.builder("Suspending.item")
    .with(FallbackConfig.builder("Suspending.item").on(IOException.class))
    .with(RetryConfig.builder("Suspending.item").maxAttempts(3).delay("10ms"))
    .with(RateLimitConfig.builder("items").permits(10).key("user:{user}"))
    .with(TimeoutConfig.builder("Suspending.item").duration("1s"))
    .fallbackTakes("noItem", IOException.class)
    .invokes(DELEGATE_TO, 0)
    .fallback(FALL_BACK_TO)
    .keys(KEYS_OF)
    .build();

  private static final CallDefinition TOUCH = CallDefinition.builder("Suspending.touch")
    .with(FallbackConfig.builder("Suspending.touch"))
    .with(StaleIfErrorConfig.builder("Suspending.touch"))
    .invokes(DELEGATE_TO, 1)
    .fallback(FALL_BACK_TO)
    .keys(KEYS_OF)
    .build();

  private static final CallDefinition ITEMS = CallDefinition.builder("Suspending.items")
    .with(FallbackConfig.builder("Suspending.items"))
    .with(RetryConfig.builder("Suspending.items"))
    .invokes(DELEGATE_TO, 2)
    .fallback(FALL_BACK_TO)
    .build();

  private final Suspending delegate;

  private final ResilientCall item;

  private final ResilientCall touch;

  private final ResilientCall items;

  private ResilientSuspending(Suspending delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.item = registry.resolve(ITEM);
    this.touch = registry.resolve(TOUCH);
    this.items = registry.resolve(ITEMS);
  }

  public static Suspending wrap(Suspending delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Suspending wrap(Suspending delegate, Registry registry) {
    return new ResilientSuspending(delegate, registry);
  }

  @Override
  public Object item(String user, int page, Continuation<? super String> $completion) {
    return CoroutineCalls.suspending(this.item, this.delegate, user, null, null, null, page, 0L, $completion);
  }

  @Override
  public Object touch(String id, Continuation<? super Unit> $completion) {
    return CoroutineCalls.suspending(this.touch, this.delegate, id, null, null, null, 0L, 0L, $completion);
  }

  @Override
  public Flow<String> items(String user) {
    return CoroutineCalls.flow(this.items, this.delegate, user, null, null, null, 0L, 0L);
  }

  @Override
  public Object plain(String id, Continuation<? super String> $completion) {
    return this.delegate.plain(id, $completion);
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
    Suspending delegate = (Suspending) target;
    switch (method) {
      case 0:
        return CoroutineCalls.attempt(continuation -> delegate.item((String) a, (int) x, continuation));
      case 1:
        return CoroutineCalls.attempt(continuation -> delegate.touch((String) a, continuation));
      case 2:
        return delegate.items((String) a);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure)
      throws Throwable {
    Suspending delegate = (Suspending) target;
    switch (method) {
      case 0:
        return CoroutineCalls.attempt(continuation -> delegate.noItem((String) args.a(), (int) args.x(), (IOException) failure, continuation));
      case 1:
        delegate.forget((String) args.a());
        return Unit.INSTANCE;
      case 2:
        return delegate.noItems((String) args.a(), failure);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static CallKeys keysOf(int method, Arguments args) {
    switch (method) {
      case 0: {
        String user = (String) args.a();
        return CallKeys.of(null, "user:" + CallKeys.part(user, "user", "Suspending.item"));
      }
      case 1: {
        String id = (String) args.a();
        return CallKeys.of(null, null, CallKeys.arguments(id));
      }
      default:
        throw new IllegalArgumentException("no keyed method " + method);
    }
  }

  /**
   * Lists Suspending's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Suspending.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientSuspending.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientSuspending.wrap((Suspending) delegate, registry);
    }
  }
}
