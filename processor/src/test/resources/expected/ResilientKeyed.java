package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.KeysOf;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientKeyed implements Keyed {
  private static final SlotInvoker DELEGATE_TO = ResilientKeyed::delegateTo;

  private static final KeysOf KEYS_OF = ResilientKeyed::keysOf;

  private static final CallDefinition CALL = CallDefinition.builder("Keyed.call")
    .with(CircuitBreakerConfig.builder("keyed-breaker").key("{request.host}"))
    .with(RateLimitConfig.builder("keyed-limiter").permits(5).key("zone:{request.inner.zone}/{tenant}:{port}"))
    .invokes(DELEGATE_TO, 0)
    .keys(KEYS_OF)
    .build();

  private final Keyed delegate;

  private final ResilientCall call;

  private ResilientKeyed(Keyed delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.call = registry.resolve(CALL);
  }

  public static Keyed wrap(Keyed delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Keyed wrap(Keyed delegate, Registry registry) {
    return new ResilientKeyed(delegate, registry);
  }

  @Override
  public String call(Keyed.Request request, String tenant, int port) {
    return this.call.call(this.delegate, request, tenant, null, null, port, 0L);
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
    Keyed delegate = (Keyed) target;
    switch (method) {
      case 0:
        return delegate.call((Keyed.Request) a, (String) b, (int) x);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  private static CallKeys keysOf(int method, Arguments args) {
    switch (method) {
      case 0: {
        Keyed.Request request = (Keyed.Request) args.a();
        String tenant = (String) args.b();
        int port = (int) args.x();
        return CallKeys.of(request == null ? CallKeys.part(null, "request", "Keyed.call") : CallKeys.part(request.host(), "request.host", "Keyed.call"), "zone:" + (request == null ? CallKeys.part(null, "request", "Keyed.call") : request.inner() == null ? CallKeys.part(null, "request.inner", "Keyed.call") : CallKeys.part(request.inner().getZone(), "request.inner.zone", "Keyed.call")) + "/" + CallKeys.part(tenant, "tenant", "Keyed.call") + ":" + CallKeys.part(port, "port", "Keyed.call"));
      }
      default:
        throw new IllegalArgumentException("no keyed method " + method);
    }
  }

  /**
   * Lists Keyed's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Keyed.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientKeyed.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientKeyed.wrap((Keyed) delegate, registry);
    }
  }
}
