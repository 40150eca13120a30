package p;

import dev.brace.Retry;
import dev.brace.Timeout;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.Objects;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientCatalog implements Catalog {
  private static final CallDefinition FIND = CallDefinition.builder("Catalog.find")
    .with(RetryConfig.builder("Catalog.find").maxAttempts(5).delay("10ms").jitter(Retry.Jitter.NONE).onResult(new Catalog.IsEmpty()))
    .with(CircuitBreakerConfig.builder("catalog-db").failureRate(0.5).onResult(new Catalog.IsEmpty()))
    .build();

  private static final CallDefinition SAVE = CallDefinition.builder("Catalog.save")
    .with(FallbackConfig.builder("Catalog.save").on(IOException.class))
    .with(RetryConfig.builder("Catalog.save").maxAttempts(2))
    .with(CircuitBreakerConfig.builder("Catalog"))
    .with(TimeoutConfig.builder("Catalog.save").duration("250ms").mode(Timeout.Mode.ABANDON))
    .fallbackTakes("ignoreSave", IOException.class)
    .build();

  private static final CallDefinition SIZE = CallDefinition.builder("Catalog.size")
    .with(RetryConfig.builder("Catalog.size").maxAttempts(2))
    .with(CircuitBreakerConfig.builder("Catalog"))
    .build();

  private final Catalog delegate;

  private final ResilientCall find;

  private final ResilientCall save;

  private final ResilientCall size;

  private ResilientCatalog(Catalog delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.find = registry.resolve(FIND);
    this.save = registry.resolve(SAVE);
    this.size = registry.resolve(SIZE);
  }

  public static Catalog wrap(Catalog delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static Catalog wrap(Catalog delegate, Registry registry) {
    return new ResilientCatalog(delegate, registry);
  }

  @Override
  public String find(String id) {
    ResilientCall call = this.find.current();
    if (call.passesThrough()) {
      return this.delegate.find(id);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        String result;
        try {
          result = this.delegate.find(id);
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
  public void save(String id) throws IOException {
    ResilientCall call = this.save.current();
    if (call.passesThrough()) {
      this.delegate.save(id);
      return;
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object ticket = call.admit(keys);
          try {
            call.timed(() -> {
                  this.delegate.save(id);
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
    } catch (Throwable failure) {
      Throwable cause = call.answerable(failure);
      if (cause == null) {
        throw ResilientCall.rethrow(failure);
      }
      try {
        Catalog.ignoreSave(id, (IOException) cause);
        return;
      } catch (Throwable fallbackFailure) {
        throw call.fallbackFailed(fallbackFailure, failure);
      }
    }
  }

  @Override
  public long size() {
    ResilientCall call = this.size.current();
    if (call.passesThrough()) {
      return this.delegate.size();
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        long result;
        try {
          result = this.delegate.size();
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
