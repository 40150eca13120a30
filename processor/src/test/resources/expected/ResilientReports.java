package p;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Keys;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientReports implements Reports {
  private static final CallDefinition REPORT = CallDefinition.builder("Reports.report")
    .retry(RetryConfig.builder("Reports.report").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .timeout(TimeoutConfig.builder("Reports.report").duration("2s").mode(Timeout.Mode.INTERRUPT))
    .build();

  private static final CallDefinition COUNT = CallDefinition.builder("Reports.count")
    .fallback(FallbackConfig.builder("Reports.count").on(Exception.class).ignore())
    .build();

  private static final CallDefinition KEYED = CallDefinition.builder("Reports.keyed")
    .fallback(FallbackConfig.builder("Reports.keyed").on(IOException.class).ignore())
    .circuitBreaker(CircuitBreakerConfig.builder("reports").failureThreshold(5).successThreshold(1).resetTimeout("30s").failureRate(0.0).window("30s").windowCalls(0).minimumCalls(20).windowBuckets(10).on(Exception.class).ignore().key("{id}").maxKeys(10000))
    .build();

  private final Reports delegate;

  private final CallGuard reportGuard;

  private final CallGuard countGuard;

  private final CallGuard keyedGuard;

  private ResilientReports(Reports delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.reportGuard = registry.guard(REPORT);
    this.countGuard = registry.guard(COUNT);
    this.keyedGuard = registry.guard(KEYED);
  }

  public static Reports wrap(Reports delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Reports wrap(Reports delegate, Registry registry) {
    return new ResilientReports(delegate, registry);
  }

  @Override
  public CompletableFuture<String> report(String id) {
    return this.reportGuard.callAsync(() -> this.delegate.report(id), null);
  }

  @Override
  public CompletionStage<Integer> count(String id) {
    return this.countGuard.callAsync(() -> this.delegate.count(id), failure -> CompletableFuture.completedFuture(this.delegate.cached(id)));
  }

  @Override
  public CompletableFuture<String> keyed(String id) {
    return this.keyedGuard.callAsync(Keys.part(id, "id", "Reports.keyed"), null, () -> this.delegate.keyed(id), failure -> this.delegate.later(id, (IOException) failure));
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
}
