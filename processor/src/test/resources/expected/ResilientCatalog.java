package p;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.FallbackInvoker;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.io.IOException;
import java.util.Objects;
import java.util.function.Function;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientCatalog implements Catalog {
  private static final SlotInvoker DELEGATE_TO = ResilientCatalog::delegateTo;

  private static final FallbackInvoker FALL_BACK_TO = ResilientCatalog::fallBackTo;

  private static final CircuitBreakerConfig.Builder CIRCUITBREAKER_CATALOG = CircuitBreakerConfig.builder("Catalog").declaredOnType("Catalog");

  private static final Function<String, IOException> NEW_IO_EXCEPTION = IOException::new;

  private static final CallDefinition FIND = CallDefinition.builder("Catalog.find")
    .with(RetryConfig.builder("Catalog.find").maxAttempts(5).delay("10ms").jitter(Retry.Jitter.NONE).onResult(new Catalog.IsEmpty()))
    .with(CircuitBreakerConfig.builder("catalog-db").failureRate(0.5).onResult(new Catalog.IsEmpty()))
    .invokes(DELEGATE_TO, 0)
    .build();

  private static final CallDefinition SAVE = CallDefinition.builder("Catalog.save")
    .with(FallbackConfig.builder("Catalog.save").on(IOException.class))
    .with(RetryConfig.builder("Catalog.save").maxAttempts(2).declaredOnType("Catalog"))
    .with(CIRCUITBREAKER_CATALOG)
    .with(TimeoutConfig.builder("Catalog.save").duration("250ms").mode(Timeout.Mode.ABANDON))
    .fallbackTakes("ignoreSave", IOException.class)
    .throwsTypes(IOException.class)
    .faultFactory(IOException.class, NEW_IO_EXCEPTION)
    .invokes(DELEGATE_TO, 1)
    .fallback(FALL_BACK_TO)
    .build();

  private static final CallDefinition SIZE = CallDefinition.builder("Catalog.size")
    .with(RetryConfig.builder("Catalog.size").maxAttempts(2).declaredOnType("Catalog"))
    .with(CIRCUITBREAKER_CATALOG)
    .invokes(DELEGATE_TO, 2)
    .build();

  private final Catalog delegate;

  private final ResilientCall find;

  private final ResilientCall save;

  private final ResilientCall size;

  private ResilientCatalog(Catalog delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.find = registry.resolve(FIND);
    this.save = registry.resolve(SAVE);
    this.size = registry.resolve(SIZE);
  }

  public static Catalog wrap(Catalog delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Catalog wrap(Catalog delegate, Registry registry) {
    return new ResilientCatalog(delegate, registry);
  }

  @Override
  public String find(String id) {
    return this.find.call(this.delegate, id, null, null, null, 0L, 0L);
  }

  @Override
  public void save(String id) throws IOException {
    this.save.call(this.delegate, id, null, null, null, 0L, 0L);
  }

  @Override
  public long size() {
    long at = this.size.instant();
    Object held = this.size.admitNow(at);
    if (this.size.admitted(held)) {
      try {
        long result = this.delegate.size();
        this.size.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.size.failed(held, at, failure);
      }
    }
    return this.size.staged(held, at, this.delegate, null, null, null, null, 0L, 0L);
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
    Catalog delegate = (Catalog) target;
    switch (method) {
      case 0:
        return delegate.find((String) a);
      case 1:
        delegate.save((String) a);
        return null;
      case 2:
        return delegate.size();
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure)
      throws Throwable {
    Catalog delegate = (Catalog) target;
    switch (method) {
      case 1:
        Catalog.ignoreSave((String) args.a(), (IOException) failure);
        return null;
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  /**
   * Lists Catalog's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Catalog.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientCatalog.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientCatalog.wrap((Catalog) delegate, registry);
    }
  }
}
