package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
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
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientRecsClient implements RecsClient {
  private static final SlotInvoker DELEGATE_TO = ResilientRecsClient::delegateTo;

  private static final FallbackInvoker FALL_BACK_TO = ResilientRecsClient::fallBackTo;

  private static final KeysOf KEYS_OF = ResilientRecsClient::keysOf;

  private static final CircuitBreakerConfig.Builder CIRCUITBREAKER_RECS_API = CircuitBreakerConfig.builder("recs-api").declaredOnType("RecsClient");

  private static final Function<String, IOException> NEW_IO_EXCEPTION = IOException::new;

  private static final CallDefinition RECOMMENDATIONS = CallDefinition.builder("RecsClient.recommendations")
    .with(FallbackConfig.builder("RecsClient.recommendations"))
    .with(RetryConfig.builder("RecsClient.recommendations").maxAttempts(3).delay("100ms").on(IOException.class))
    .with(CIRCUITBREAKER_RECS_API)
    .with(RateLimitConfig.builder("recs-api").permits(20).per("1s").key("user:{userId}"))
    .with(BulkheadConfig.builder("recs-api").maxConcurrent(10))
    .with(TimeoutConfig.builder("RecsClient.recommendations").duration("1s"))
    .fallbackTakes("noRecs", Exception.class)
    .throwsTypes(IOException.class)
    .faultFactory(IOException.class, NEW_IO_EXCEPTION)
    .invokes(DELEGATE_TO, 0)
    .fallback(FALL_BACK_TO)
    .keys(KEYS_OF)
    .build();

  private static final CallDefinition COUNT = CallDefinition.builder("RecsClient.count")
    .with(CIRCUITBREAKER_RECS_API)
    .invokes(DELEGATE_TO, 1)
    .build();

  private final RecsClient delegate;

  private final ResilientCall recommendations;

  private final ResilientCall count;

  private ResilientRecsClient(RecsClient delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.recommendations = registry.resolve(RECOMMENDATIONS);
    this.count = registry.resolve(COUNT);
  }

  public static RecsClient wrap(RecsClient delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static RecsClient wrap(RecsClient delegate, Registry registry) {
    return new ResilientRecsClient(delegate, registry);
  }

  @Override
  public List<String> recommendations(String userId) throws IOException {
    return this.recommendations.call(this.delegate, userId, null, null, null, 0L, 0L);
  }

  @Override
  public int count() {
    long at = this.count.instant();
    Object held = this.count.admitNow(at);
    if (this.count.admitted(held)) {
      try {
        int result = this.delegate.count();
        this.count.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.count.failed(held, at, failure);
      }
    }
    return this.count.staged(held, at, this.delegate, null, null, null, null, 0L, 0L);
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
    RecsClient delegate = (RecsClient) target;
    switch (method) {
      case 0:
        return delegate.recommendations((String) a);
      case 1:
        return delegate.count();
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static Object fallBackTo(int method, Object target, Arguments args, Throwable failure)
      throws Throwable {
    RecsClient delegate = (RecsClient) target;
    switch (method) {
      case 0:
        return delegate.noRecs((String) args.a(), (Exception) failure);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static CallKeys keysOf(int method, Arguments args) {
    switch (method) {
      case 0: {
        String userId = (String) args.a();
        return CallKeys.of(null, "user:" + CallKeys.part(userId, "userId", "RecsClient.recommendations"));
      }
      default:
        throw new IllegalArgumentException("no keyed method " + method);
    }
  }

  /**
   * Lists RecsClient's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return RecsClient.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientRecsClient.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientRecsClient.wrap((RecsClient) delegate, registry);
    }
  }
}
