package p;

import dev.brace.runtime.CircuitOpenException;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.function.Function;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientPayments implements Payments {
  private static final SlotInvoker DELEGATE_TO = ResilientPayments::delegateTo;

  private static final CircuitBreakerConfig.Builder CIRCUITBREAKER_PAYMENTS_API = CircuitBreakerConfig.builder("payments-api").declaredOnType("Payments");

  private static final Function<String, ConnectException> NEW_CONNECT_EXCEPTION = ConnectException::new;

  private static final Function<String, UnknownHostException> NEW_UNKNOWN_HOST_EXCEPTION = UnknownHostException::new;

  private static final CallDefinition CHARGE = CallDefinition.builder("Payments.charge")
    .with(RetryConfig.builder("Payments.charge").maxAttempts(3).on(ConnectException.class, UnknownHostException.class, CircuitOpenException.class))
    .with(CIRCUITBREAKER_PAYMENTS_API)
    .notIdempotent()
    .throwsTypes(ConnectException.class, UnknownHostException.class)
    .faultFactory(ConnectException.class, NEW_CONNECT_EXCEPTION)
    .faultFactory(UnknownHostException.class, NEW_UNKNOWN_HOST_EXCEPTION)
    .invokes(DELEGATE_TO, 0)
    .build();

  private static final CallDefinition REFUND = CallDefinition.builder("Payments.refund")
    .with(CIRCUITBREAKER_PAYMENTS_API)
    .with(TimeoutConfig.builder("Payments.refund").duration("2s"))
    .notIdempotent()
    .invokes(DELEGATE_TO, 1)
    .build();

  private final Payments delegate;

  private final ResilientCall charge;

  private final ResilientCall refund;

  private ResilientPayments(Payments delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.charge = registry.resolve(CHARGE);
    this.refund = registry.resolve(REFUND);
  }

  public static Payments wrap(Payments delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Payments wrap(Payments delegate, Registry registry) {
    return new ResilientPayments(delegate, registry);
  }

  @Override
  public String charge(String orderId) throws ConnectException, UnknownHostException {
    long at = this.charge.instant();
    Object held = this.charge.admitNow(at);
    if (this.charge.admitted(held)) {
      try {
        String result = this.delegate.charge(orderId);
        this.charge.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.charge.failed(held, at, failure);
      }
    }
    return this.charge.staged(held, at, this.delegate, orderId, null, null, null, 0L, 0L);
  }

  @Override
  public String refund(String orderId) {
    return this.refund.call(this.delegate, orderId, null, null, null, 0L, 0L);
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
    Payments delegate = (Payments) target;
    switch (method) {
      case 0:
        return delegate.charge((String) a);
      case 1:
        return delegate.refund((String) a);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  /**
   * Lists Payments's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Payments.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientPayments.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientPayments.wrap((Payments) delegate, registry);
    }
  }
}
