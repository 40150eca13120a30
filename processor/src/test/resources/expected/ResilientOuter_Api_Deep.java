package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientOuter_Api_Deep implements Outer.Api.Deep {
  private static final CallDefinition RUN = CallDefinition.builder("Outer.Api.Deep.run")
    .with(TimeoutConfig.builder("Outer.Api.Deep.run").duration("1s"))
    .build();

  private final Outer.Api.Deep delegate;

  private final ResilientCall run;

  private ResilientOuter_Api_Deep(Outer.Api.Deep delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.run = registry.resolve(RUN);
  }

  public static Outer.Api.Deep wrap(Outer.Api.Deep delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Outer.Api.Deep wrap(Outer.Api.Deep delegate, Registry registry) {
    return new ResilientOuter_Api_Deep(delegate, registry);
  }

  @Override
  public void run() {
    ResilientCall call = this.run.current();
    if (call.passesThrough()) {
      this.delegate.run();
      return;
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        try {
          call.timed(() -> {
                this.delegate.run();
                return null;
              });
        } catch (Throwable failure) {
          call.attemptFailed(ticket, failure);
          throw failure;
        }
        call.attemptSucceeded(ticket, null);
        run = call.retryResult(run, attempt, started, null);
        if (run == null) {
          return;
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
