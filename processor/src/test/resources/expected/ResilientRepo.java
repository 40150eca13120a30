package p;

import dev.brace.Retry;
import dev.brace.runtime.Registry;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.internal.sequence.CallGuard;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientRepo<T extends Comparable<T>> implements Repo<T> {
  private static final CallDefinition GET = CallDefinition.builder("Repo.get")
    .retry(RetryConfig.builder("Repo.get").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .build();

  private static final CallDefinition MAX = CallDefinition.builder("Repo.max")
    .retry(RetryConfig.builder("Repo.max").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .build();

  private static final CallDefinition PUT_ALL = CallDefinition.builder("Repo.putAll")
    .retry(RetryConfig.builder("Repo.putAll").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .build();

  private static final CallDefinition SIZES = CallDefinition.builder("Repo.sizes")
    .retry(RetryConfig.builder("Repo.sizes").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .build();

  private static final CallDefinition CLEAR = CallDefinition.builder("Repo.clear")
    .retry(RetryConfig.builder("Repo.clear").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .build();

  private static final CallDefinition FETCH = CallDefinition.builder("Repo.fetch")
    .retry(RetryConfig.builder("Repo.fetch").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .build();

  private static final CallDefinition FETCH_2 = CallDefinition.builder("Repo.fetch")
    .retry(RetryConfig.builder("Repo.fetch").maxAttempts(3).delay("100ms").maxDelay("30s").multiplier(2.0).jitter(Retry.Jitter.FULL).maxDuration("").on(Exception.class).ignore().budget("").maxRetryAfter("60s"))
    .build();

  private final Repo<T> delegate;

  private final CallGuard getGuard;

  private final CallGuard maxGuard;

  private final CallGuard putAllGuard;

  private final CallGuard sizesGuard;

  private final CallGuard clearGuard;

  private final CallGuard fetchGuard;

  private final CallGuard fetchGuard2;

  private ResilientRepo(Repo<T> delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.getGuard = registry.guard(GET);
    this.maxGuard = registry.guard(MAX);
    this.putAllGuard = registry.guard(PUT_ALL);
    this.sizesGuard = registry.guard(SIZES);
    this.clearGuard = registry.guard(CLEAR);
    this.fetchGuard = registry.guard(FETCH);
    this.fetchGuard2 = registry.guard(FETCH_2);
  }

  public static <T extends Comparable<T>> Repo<T> wrap(Repo<T> delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static <T extends Comparable<T>> Repo<T> wrap(Repo<T> delegate, Registry registry) {
    return new ResilientRepo<>(delegate, registry);
  }

  @Override
  public T get(long id) throws IOException, TimeoutException {
    CallGuard guard = this.getGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          T result;
          try {
            result = this.delegate.get(id);
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
  public <R extends Number & Comparable<R>> R max(List<? extends R> values) {
    CallGuard guard = this.maxGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          R result;
          try {
            result = this.delegate.max(values);
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
  public void putAll(String... items) {
    CallGuard guard = this.putAllGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          try {
            this.delegate.putAll(items);
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
  public int[] sizes(byte[][] data, char c, boolean flag, double d, float f, short s) {
    CallGuard guard = this.sizesGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          int[] result;
          try {
            result = this.delegate.sizes(data, c, flag, d, f, s);
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
  public void clear() {
    CallGuard guard = this.clearGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          try {
            this.delegate.clear();
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
  public List<T> fetch(int limit) {
    CallGuard guard = this.fetchGuard;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          List<T> result;
          try {
            result = this.delegate.fetch(limit);
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
  public List<T> fetch(String filter) {
    CallGuard guard = this.fetchGuard2;
    long started = guard.begin();
    RetryRun run = null;
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          Object permit = guard.admit();
          List<T> result;
          try {
            result = this.delegate.fetch(filter);
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
