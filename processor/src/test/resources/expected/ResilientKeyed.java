package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.generated.Keys;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientKeyed implements Keyed {
  private static final CallDefinition CALL = CallDefinition.builder("Keyed.call")
    .circuitBreaker(CircuitBreakerConfig.builder("keyed-breaker").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.0).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().key("{request.host}").maxKeys(10000))
    .rateLimit(RateLimitConfig.builder("keyed-limiter").permits(5).per("1s").burst(0).maxWait("0ms").key("zone:{request.inner.zone}/{tenant}:{port}").maxKeys(10000))
    .build();

  private final Keyed delegate;

  private final CallGuard callGuard;

  private ResilientKeyed(Keyed delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.callGuard = registry.guard(CALL);
  }

  public static Keyed wrap(Keyed delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Keyed wrap(Keyed delegate, Registry registry) {
    return new ResilientKeyed(delegate, registry);
  }

  @Override
  public String call(Keyed.Request request, String tenant, int port) {
    CallGuard guard = this.callGuard;
    String breakerKey = request == null ? Keys.part(null, "request", "Keyed.call") : Keys.part(request.host(), "request.host", "Keyed.call");
    String limiterKey = "zone:" + (request == null ? Keys.part(null, "request", "Keyed.call") : request.inner() == null ? Keys.part(null, "request.inner", "Keyed.call") : Keys.part(request.inner().getZone(), "request.inner.zone", "Keyed.call")) + "/" + Keys.part(tenant, "tenant", "Keyed.call") + ":" + Keys.part(port, "port", "Keyed.call");
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit(breakerKey, limiterKey);
          String result;
          try {
            result = this.delegate.call(request, tenant, port);
          } catch (Throwable failure) {
            guard.attemptFailed(permit, failure);
            throw failure;
          }
          guard.attemptSucceeded(permit);
          return result;
        } catch (Throwable failure) {
          run = guard.retryOrThrow(run, attempt, started, failure);
        }
      }
    } catch (Throwable failure) {
      throw Failures.rethrow(failure);
    }
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
}
