package p;

import dev.brace.reactor.ReactorCalls;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.HedgeConfig;
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
import java.util.List;
import java.util.Objects;
import javax.annotation.processing.Generated;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientItems implements Items {
  private static final SlotInvoker DELEGATE_TO = ResilientItems::delegateTo;

  private static final FallbackInvoker FALL_BACK_TO = ResilientItems::fallBackTo;

  private static final KeysOf KEYS_OF = ResilientItems::keysOf;

  private static final CircuitBreakerConfig.Builder CIRCUITBREAKER_ITEMS = CircuitBreakerConfig.builder("items").declaredOnType("Items");

  private static final CallDefinition ITEM = CallDefinition.builder("Items.item")
    .with(FallbackConfig.builder("Items.item"))
    .with(RetryConfig.builder("Items.item").on(IOException.class))
    .with(CIRCUITBREAKER_ITEMS)
    .with(TimeoutConfig.builder("Items.item").duration("1s"))
    .invokes(DELEGATE_TO, 0)
    .fallback(FALL_BACK_TO)
    .build();

  private static final CallDefinition COUNT = CallDefinition.builder("Items.count")
    .with(FallbackConfig.builder("Items.count"))
    .with(StaleIfErrorConfig.builder("Items.count").key("{shelf}"))
    .with(HedgeConfig.builder("Items.count").delay("50ms"))
    .with(CIRCUITBREAKER_ITEMS)
    .fallbackTakes("none", Exception.class)
    .invokes(DELEGATE_TO, 1)
    .fallback(FALL_BACK_TO)
    .keys(KEYS_OF)
    .build();

  private static final CallDefinition ENTRIES = CallDefinition.builder("Items.entries")
    .with(FallbackConfig.builder("Items.entries"))
    .with(RetryConfig.builder("Items.entries"))
    .with(CIRCUITBREAKER_ITEMS)
    .with(RateLimitConfig.builder("Items").permits(10))
    .invokes(DELEGATE_TO, 2)
    .fallback(FALL_BACK_TO)
    .build();

  private static final CallDefinition ALL = CallDefinition.builder("Items.all")
    .with(CIRCUITBREAKER_ITEMS)
    .with(TimeoutConfig.builder("Items.all").duration("2s"))
    .invokes(DELEGATE_TO, 3)
    .build();

  private final Items delegate;

  private final ResilientCall item;

  private final ResilientCall count;

  private final ResilientCall entries;

  private final ResilientCall all;

  private ResilientItems(Items delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.item = registry.resolve(ITEM);
    this.count = registry.resolve(COUNT);
    this.entries = registry.resolve(ENTRIES);
    this.all = registry.resolve(ALL);
  }

  public static Items wrap(Items delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Items wrap(Items delegate, Registry registry) {
    return new ResilientItems(delegate, registry);
  }

  @Override
  public Mono<String> item(String id) {
    return ReactorCalls.mono(this.item, this.delegate, id, null, null, null, 0L, 0L);
  }

  @Override
  public Mono<Integer> count(String shelf, int page) {
    return ReactorCalls.mono(this.count, this.delegate, shelf, null, null, null, page, 0L);
  }

  @Override
  public Flux<String> entries(String feed) {
    return ReactorCalls.flux(this.entries, this.delegate, feed, null, null, null, 0L, 0L);
  }

  @Override
  public Mono<List<String>> all() {
    return ReactorCalls.mono(this.all, this.delegate, null, null, null, null, 0L, 0L);
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
    Items delegate = (Items) target;
    switch (method) {
      case 0:
        return delegate.item((String) a);
      case 1:
        return delegate.count((String) a, (int) x);
      case 2:
        return delegate.entries((String) a);
      case 3:
        return delegate.all();
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure)
      throws Throwable {
    Items delegate = (Items) target;
    switch (method) {
      case 0:
        return ReactorCalls.answer(delegate.unknown((String) args.a()));
      case 1:
        return delegate.none((String) args.a(), (int) args.x(), (Exception) failure);
      case 2:
        return delegate.nothing((String) args.a());
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static CallKeys keysOf(int method, Arguments args) {
    switch (method) {
      case 1: {
        String shelf = (String) args.a();
        return CallKeys.of(null, null, CallKeys.part(shelf, "shelf", "Items.count"));
      }
      default:
        throw new IllegalArgumentException("no keyed method " + method);
    }
  }

  /**
   * Lists Items's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Items.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientItems.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientItems.wrap((Items) delegate, registry);
    }
  }
}
