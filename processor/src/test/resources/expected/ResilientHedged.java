package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.RetryConfig;
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
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientHedged implements Hedged {
  private static final SlotInvoker DELEGATE_TO = ResilientHedged::delegateTo;

  private static final FallbackInvoker FALL_BACK_TO = ResilientHedged::fallBackTo;

  private static final KeysOf KEYS_OF = ResilientHedged::keysOf;

  private static final Function<String, IOException> NEW_IO_EXCEPTION = IOException::new;

  private static final CallDefinition SEARCH = CallDefinition.builder("Hedged.search")
    .with(FallbackConfig.builder("Hedged.search"))
    .with(RetryConfig.builder("Hedged.search").maxAttempts(2))
    .with(HedgeConfig.builder("Hedged.search").delay("50ms").maxHedges(2).on(IOException.class).budget("search-api"))
    .with(CircuitBreakerConfig.builder("search-api").key("{query}"))
    .with(TimeoutConfig.builder("Hedged.search").duration("1s"))
    .throwsTypes(IOException.class)
    .faultFactory(IOException.class, NEW_IO_EXCEPTION)
    .invokes(DELEGATE_TO, 0)
    .fallback(FALL_BACK_TO)
    .keys(KEYS_OF)
    .build();

  private static final CallDefinition PING = CallDefinition.builder("Hedged.ping")
    .with(HedgeConfig.builder("Hedged.ping"))
    .throwsTypes(IOException.class)
    .faultFactory(IOException.class, NEW_IO_EXCEPTION)
    .invokes(DELEGATE_TO, 1)
    .build();

  private static final CallDefinition COUNT = CallDefinition.builder("Hedged.count")
    .with(HedgeConfig.builder("Hedged.count").delay("20ms"))
    .invokes(DELEGATE_TO, 2)
    .build();

  private static final CallDefinition SEARCH_ASYNC = CallDefinition.builder("Hedged.searchAsync")
    .with(HedgeConfig.builder("search-async").maxHedges(3))
    .invokes(DELEGATE_TO, 3)
    .build();

  private final Hedged delegate;

  private final ResilientCall search;

  private final ResilientCall ping;

  private final ResilientCall count;

  private final ResilientCall searchAsync;

  private ResilientHedged(Hedged delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.search = registry.resolve(SEARCH);
    this.ping = registry.resolve(PING);
    this.count = registry.resolve(COUNT);
    this.searchAsync = registry.resolve(SEARCH_ASYNC);
  }

  public static Hedged wrap(Hedged delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Hedged wrap(Hedged delegate, Registry registry) {
    return new ResilientHedged(delegate, registry);
  }

  @Override
  public String search(String query) throws IOException {
    return this.search.call(this.delegate, query, null, null, null, 0L, 0L);
  }

  @Override
  public void ping() throws IOException {
    this.ping.call(this.delegate, null, null, null, null, 0L, 0L);
  }

  @Override
  public int count(String query) {
    return this.count.call(this.delegate, query, null, null, null, 0L, 0L);
  }

  @Override
  public CompletableFuture<String> searchAsync(String query) {
    return this.searchAsync.callAsync(this.delegate, query, null, null, null, 0L, 0L);
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
    Hedged delegate = (Hedged) target;
    switch (method) {
      case 0:
        return delegate.search((String) a);
      case 1:
        delegate.ping();
        return null;
      case 2:
        return delegate.count((String) a);
      case 3:
        return delegate.searchAsync((String) a);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure)
      throws Throwable {
    Hedged delegate = (Hedged) target;
    switch (method) {
      case 0:
        return delegate.none((String) args.a());
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static CallKeys keysOf(int method, Arguments args) {
    switch (method) {
      case 0: {
        String query = (String) args.a();
        return CallKeys.of(CallKeys.part(query, "query", "Hedged.search"), null);
      }
      default:
        throw new IllegalArgumentException("no keyed method " + method);
    }
  }

  /**
   * Lists Hedged's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Hedged.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientHedged.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientHedged.wrap((Hedged) delegate, registry);
    }
  }
}
