package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
final class ResilientOuter_Inner implements Outer.Inner {
  private static final CallDefinition PING = CallDefinition.builder("Outer.Inner.ping")
    .with(BulkheadConfig.builder("Outer.Inner"))
    .build();

  private final Outer.Inner delegate;

  private final ResilientCall ping;

  private ResilientOuter_Inner(Outer.Inner delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.ping = registry.resolve(PING);
  }

  public static Outer.Inner wrap(Outer.Inner delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Outer.Inner wrap(Outer.Inner delegate, Registry registry) {
    return new ResilientOuter_Inner(delegate, registry);
  }

  @Override
  public String ping() {
    ResilientCall call = this.ping.current();
    if (call.passesThrough()) {
      return this.delegate.ping();
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        String result;
        try {
          result = this.delegate.ping();
        } catch (Throwable failure) {
          call.attemptFailed(ticket, failure);
          throw failure;
        }
        call.attemptSucceeded(ticket, result);
        run = call.retryResult(run, attempt, started, result);
        if (run == null) {
          return result;
        }
      } catch (Throwable failure) {
        run = call.retryOrThrow(run, attempt, started, failure);
      }
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
