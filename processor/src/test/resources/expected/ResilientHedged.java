package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientHedged implements Hedged {
  private static final CallDefinition SEARCH = CallDefinition.builder("Hedged.search")
    .with(FallbackConfig.builder("Hedged.search"))
    .with(RetryConfig.builder("Hedged.search").maxAttempts(2))
    .with(HedgeConfig.builder("Hedged.search").delay("50ms").maxHedges(2).on(IOException.class).budget("search-api"))
    .with(CircuitBreakerConfig.builder("search-api").key("{query}"))
    .with(TimeoutConfig.builder("Hedged.search").duration("1s"))
    .build();

  private static final CallDefinition PING = CallDefinition.builder("Hedged.ping")
    .with(HedgeConfig.builder("Hedged.ping"))
    .build();

  private static final CallDefinition COUNT = CallDefinition.builder("Hedged.count")
    .with(HedgeConfig.builder("Hedged.count").delay("20ms"))
    .build();

  private static final CallDefinition SEARCH_ASYNC = CallDefinition.builder("Hedged.searchAsync")
    .with(HedgeConfig.builder("search-async").maxHedges(3))
    .build();

  private final Hedged delegate;

  private final ResilientCall search;

  private final ResilientCall ping;

  private final ResilientCall count;

  private final ResilientCall searchAsync;

  private ResilientHedged(Hedged delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.search = registry.resolve(SEARCH);
    this.ping = registry.resolve(PING);
    this.count = registry.resolve(COUNT);
    this.searchAsync = registry.resolve(SEARCH_ASYNC);
  }

  public static Hedged wrap(Hedged delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Hedged wrap(Hedged delegate, Registry registry) {
    return new ResilientHedged(delegate, registry);
  }

  @Override
  public String search(String query) throws IOException {
    ResilientCall call = this.search.current();
    if (call.passesThrough()) {
      return this.delegate.search(query);
    }
    CallKeys keys = CallKeys.of(CallKeys.part(query, "query", "Hedged.search"), null);
    long started = call.begin();
    Object run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          String result = call.hedged(keys, () -> this.delegate.search(query));
          run = call.retryResult(run, attempt, started, result);
          if (run == null) {
            return result;
          }
        } catch (Throwable failure) {
          run = call.retryOrThrow(run, attempt, started, failure);
        }
      }
    } catch (Throwable failure) {
      Throwable cause = call.answerable(failure);
      if (cause == null) {
        throw ResilientCall.rethrow(failure);
      }
      try {
        return this.delegate.none(query);
      } catch (Throwable fallbackFailure) {
        throw call.fallbackFailed(fallbackFailure, failure);
      }
    }
  }

  @Override
  public void ping() throws IOException {
    ResilientCall call = this.ping.current();
    if (call.passesThrough()) {
      this.delegate.ping();
      return;
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        call.hedged(keys, () -> {
              this.delegate.ping();
              return null;
            });
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
  public int count(String query) {
    ResilientCall call = this.count.current();
    if (call.passesThrough()) {
      return this.delegate.count(query);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        int result = call.hedged(keys, () -> this.delegate.count(query));
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
  public CompletableFuture<String> searchAsync(String query) {
    return this.searchAsync.callAsync(
        () -> this.delegate.searchAsync(query),
        null);
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
