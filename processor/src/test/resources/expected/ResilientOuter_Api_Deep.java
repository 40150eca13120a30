package p;

import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientOuter_Api_Deep implements Outer.Api.Deep {
  private static final CallDefinition RUN = CallDefinition.builder("Outer.Api.Deep.run")
    .timeout(TimeoutConfig.builder("Outer.Api.Deep.run").duration("1s").mode(Timeout.Mode.INTERRUPT))
    .build();

  private final Outer.Api.Deep delegate;

  private final CallGuard runGuard;

  private ResilientOuter_Api_Deep(Outer.Api.Deep delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.runGuard = registry.guard(RUN);
  }

  public static Outer.Api.Deep wrap(Outer.Api.Deep delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Outer.Api.Deep wrap(Outer.Api.Deep delegate, Registry registry) {
    return new ResilientOuter_Api_Deep(delegate, registry);
  }

  @Override
  public void run() {
    CallGuard guard = this.runGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          try {
            guard.timed(() -> {
                  this.delegate.run();
                  return null;
                });
          } catch (Throwable failure) {
            guard.attemptFailed(permit, failure);
            throw failure;
          }
          guard.attemptSucceeded(permit);
          return;
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
