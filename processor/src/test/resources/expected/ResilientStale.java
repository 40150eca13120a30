package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
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
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientStale implements Stale {
  private static final SlotInvoker DELEGATE_TO = ResilientStale::delegateTo;

  private static final FallbackInvoker FALL_BACK_TO = ResilientStale::fallBackTo;

  private static final KeysOf KEYS_OF = ResilientStale::keysOf;

  private static final Function<String, IOException> NEW_IO_EXCEPTION = IOException::new;

  private static final CallDefinition RECOMMENDATIONS = CallDefinition.builder("Stale.recommendations")
    .with(FallbackConfig.builder("Stale.recommendations").on(IOException.class))
    .with(StaleIfErrorConfig.builder("Stale.recommendations").maxAge("1h").fresh("5s").key("user:{userId}"))
    .with(RetryConfig.builder("Stale.recommendations").maxAttempts(2).on(IOException.class))
    .fallbackTakes("none", IOException.class)
    .throwsTypes(IOException.class)
    .faultFactory(IOException.class, NEW_IO_EXCEPTION)
    .invokes(DELEGATE_TO, 0)
    .fallback(FALL_BACK_TO)
    .keys(KEYS_OF)
    .build();

  private static final CallDefinition PRICE = CallDefinition.builder("Stale.price")
    .with(StaleIfErrorConfig.builder("Stale.price"))
    .invokes(DELEGATE_TO, 1)
    .keys(KEYS_OF)
    .build();

  private static final CallDefinition EVERYTHING = CallDefinition.builder("Stale.everything")
    .with(StaleIfErrorConfig.builder("Stale.everything"))
    .invokes(DELEGATE_TO, 2)
    .keys(KEYS_OF)
    .build();

  private static final CallDefinition REPORT = CallDefinition.builder("Stale.report")
    .with(StaleIfErrorConfig.builder("Stale.report").maxEntries(100))
    .invokes(DELEGATE_TO, 3)
    .keys(KEYS_OF)
    .build();

  private final Stale delegate;

  private final ResilientCall recommendations;

  private final ResilientCall price;

  private final ResilientCall everything;

  private final ResilientCall report;

  private ResilientStale(Stale delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.recommendations = registry.resolve(RECOMMENDATIONS);
    this.price = registry.resolve(PRICE);
    this.everything = registry.resolve(EVERYTHING);
    this.report = registry.resolve(REPORT);
  }

  public static Stale wrap(Stale delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Stale wrap(Stale delegate, Registry registry) {
    return new ResilientStale(delegate, registry);
  }

  @Override
  public List<String> recommendations(String userId, int limit) throws IOException {
    return this.recommendations.call(this.delegate, userId, null, null, null, limit, 0L);
  }

  @Override
  public String price(String sku, String... regions) {
    return this.price.call(this.delegate, sku, regions, null, null, 0L, 0L);
  }

  @Override
  public String everything(String[] ids) {
    return this.everything.call(this.delegate, ids, null, null, null, 0L, 0L);
  }

  @Override
  public CompletableFuture<String> report(String id) {
    return this.report.callAsync(this.delegate, id, null, null, null, 0L, 0L);
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
    Stale delegate = (Stale) target;
    switch (method) {
      case 0:
        return delegate.recommendations((String) a, (int) x);
      case 1:
        return delegate.price((String) a, (String[]) b);
      case 2:
        return delegate.everything((String[]) a);
      case 3:
        return delegate.report((String) a);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure)
      throws Throwable {
    Stale delegate = (Stale) target;
    switch (method) {
      case 0:
        return delegate.none((String) args.a(), (int) args.x(), (IOException) failure);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static CallKeys keysOf(int method, Arguments args) {
    switch (method) {
      case 0: {
        String userId = (String) args.a();
        return CallKeys.of(null, null, "user:" + CallKeys.part(userId, "userId", "Stale.recommendations"));
      }
      case 1: {
        String sku = (String) args.a();
        String[] regions = (String[]) args.b();
        return CallKeys.of(null, null, CallKeys.arguments(sku, regions));
      }
      case 2: {
        String[] ids = (String[]) args.a();
        return CallKeys.of(null, null, CallKeys.arguments((Object) ids));
      }
      case 3: {
        String id = (String) args.a();
        return CallKeys.of(null, null, CallKeys.arguments(id));
      }
      default:
        throw new IllegalArgumentException("no keyed method " + method);
    }
  }

  /**
   * Lists Stale's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Stale.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientStale.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientStale.wrap((Stale) delegate, registry);
    }
  }
}
