package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
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
import java.util.concurrent.CompletionStage;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientReports implements Reports {
  private static final SlotInvoker DELEGATE_TO = ResilientReports::delegateTo;

  private static final FallbackInvoker FALL_BACK_TO = ResilientReports::fallBackTo;

  private static final KeysOf KEYS_OF = ResilientReports::keysOf;

  private static final CallDefinition REPORT = CallDefinition.builder("Reports.report")
    .with(RetryConfig.builder("Reports.report"))
    .with(TimeoutConfig.builder("Reports.report").duration("2s"))
    .invokes(DELEGATE_TO, 0)
    .build();

  private static final CallDefinition COUNT = CallDefinition.builder("Reports.count")
    .with(FallbackConfig.builder("Reports.count"))
    .invokes(DELEGATE_TO, 1)
    .fallback(FALL_BACK_TO)
    .build();

  private static final CallDefinition KEYED = CallDefinition.builder("Reports.keyed")
    .with(FallbackConfig.builder("Reports.keyed").on(IOException.class))
    .with(CircuitBreakerConfig.builder("reports").key("{id}"))
    .fallbackTakes("later", IOException.class)
    .invokes(DELEGATE_TO, 2)
    .fallback(FALL_BACK_TO)
    .keys(KEYS_OF)
    .build();

  private final Reports delegate;

  private final ResilientCall report;

  private final ResilientCall count;

  private final ResilientCall keyed;

  private ResilientReports(Reports delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.report = registry.resolve(REPORT);
    this.count = registry.resolve(COUNT);
    this.keyed = registry.resolve(KEYED);
  }

  public static Reports wrap(Reports delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Reports wrap(Reports delegate, Registry registry) {
    return new ResilientReports(delegate, registry);
  }

  @Override
  public CompletableFuture<String> report(String id) {
    return this.report.callAsync(this.delegate, id, null, null, null, 0L, 0L);
  }

  @Override
  public CompletionStage<Integer> count(String id) {
    return this.count.callAsync(this.delegate, id, null, null, null, 0L, 0L);
  }

  @Override
  public CompletableFuture<String> keyed(String id) {
    return this.keyed.callAsync(this.delegate, id, null, null, null, 0L, 0L);
  }

  @Override
  public CompletableFuture<Void> plain() {
    return this.delegate.plain();
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
    Reports delegate = (Reports) target;
    switch (method) {
      case 0:
        return delegate.report((String) a);
      case 1:
        return delegate.count((String) a);
      case 2:
        return delegate.keyed((String) a);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure)
      throws Throwable {
    Reports delegate = (Reports) target;
    switch (method) {
      case 1:
        return CompletableFuture.completedFuture(delegate.cached((String) args.a()));
      case 2:
        return delegate.later((String) args.a(), (IOException) failure);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static CallKeys keysOf(int method, Arguments args) {
    switch (method) {
      case 2: {
        String id = (String) args.a();
        return CallKeys.of(CallKeys.part(id, "id", "Reports.keyed"), null);
      }
      default:
        throw new IllegalArgumentException("no keyed method " + method);
    }
  }

  /**
   * Lists Reports's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Reports.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientReports.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientReports.wrap((Reports) delegate, registry);
    }
  }
}
