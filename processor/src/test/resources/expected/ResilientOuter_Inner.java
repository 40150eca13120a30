package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
final class ResilientOuter_Inner implements Outer.Inner {
  private static final CallDefinition PING = CallDefinition.builder("Outer.Inner.ping")
    .bulkhead(BulkheadConfig.builder("Outer.Inner").maxConcurrent(10).maxWait("0ms"))
    .build();

  private final Outer.Inner delegate;

  private final CallGuard pingGuard;

  private ResilientOuter_Inner(Outer.Inner delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.pingGuard = registry.guard(PING);
  }

  public static Outer.Inner wrap(Outer.Inner delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Outer.Inner wrap(Outer.Inner delegate, Registry registry) {
    return new ResilientOuter_Inner(delegate, registry);
  }

  @Override
  public String ping() {
    CallGuard guard = this.pingGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          String result;
          try {
            result = this.delegate.ping();
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
