package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.support.ResilientCall;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientRepo<T extends Comparable<T>> implements Repo<T> {
  private static final CallDefinition GET = CallDefinition.builder("Repo.get")
    .with(RetryConfig.builder("Repo.get"))
    .build();

  private static final CallDefinition MAX = CallDefinition.builder("Repo.max")
    .with(RetryConfig.builder("Repo.max"))
    .build();

  private static final CallDefinition PUT_ALL = CallDefinition.builder("Repo.putAll")
    .with(RetryConfig.builder("Repo.putAll"))
    .build();

  private static final CallDefinition SIZES = CallDefinition.builder("Repo.sizes")
    .with(RetryConfig.builder("Repo.sizes"))
    .build();

  private static final CallDefinition CLEAR = CallDefinition.builder("Repo.clear")
    .with(RetryConfig.builder("Repo.clear"))
    .build();

  private static final CallDefinition FETCH = CallDefinition.builder("Repo.fetch")
    .with(RetryConfig.builder("Repo.fetch"))
    .build();

  private static final CallDefinition FETCH_2 = CallDefinition.builder("Repo.fetch")
    .with(RetryConfig.builder("Repo.fetch"))
    .build();

  private final Repo<T> delegate;

  private final ResilientCall get;

  private final ResilientCall max;

  private final ResilientCall putAll;

  private final ResilientCall sizes;

  private final ResilientCall clear;

  private final ResilientCall fetch;

  private final ResilientCall fetch2;

  private ResilientRepo(Repo<T> delegate, Registry registry) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(registry, "registry");
    this.get = registry.resolve(GET);
    this.max = registry.resolve(MAX);
    this.putAll = registry.resolve(PUT_ALL);
    this.sizes = registry.resolve(SIZES);
    this.clear = registry.resolve(CLEAR);
    this.fetch = registry.resolve(FETCH);
    this.fetch2 = registry.resolve(FETCH_2);
  }

  public static <T extends Comparable<T>> Repo<T> wrap(Repo<T> delegate) {
    return wrap(delegate, Registry.defaultRegistry());
  }

  public static <T extends Comparable<T>> Repo<T> wrap(Repo<T> delegate, Registry registry) {
    return new ResilientRepo<>(delegate, registry);
  }

  @Override
  public T get(long id) throws IOException, TimeoutException {
    ResilientCall call = this.get.current();
    if (call.passesThrough()) {
      return this.delegate.get(id);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        T result;
        try {
          result = this.delegate.get(id);
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
  public <R extends Number & Comparable<R>> R max(List<? extends R> values) {
    ResilientCall call = this.max.current();
    if (call.passesThrough()) {
      return this.delegate.max(values);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        R result;
        try {
          result = this.delegate.max(values);
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
  public void putAll(String... items) {
    ResilientCall call = this.putAll.current();
    if (call.passesThrough()) {
      this.delegate.putAll(items);
      return;
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        try {
          this.delegate.putAll(items);
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
  public int[] sizes(byte[][] data, char c, boolean flag, double d, float f, short s) {
    ResilientCall call = this.sizes.current();
    if (call.passesThrough()) {
      return this.delegate.sizes(data, c, flag, d, f, s);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        int[] result;
        try {
          result = this.delegate.sizes(data, c, flag, d, f, s);
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
  public void clear() {
    ResilientCall call = this.clear.current();
    if (call.passesThrough()) {
      this.delegate.clear();
      return;
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        try {
          this.delegate.clear();
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
  public List<T> fetch(int limit) {
    ResilientCall call = this.fetch.current();
    if (call.passesThrough()) {
      return this.delegate.fetch(limit);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        List<T> result;
        try {
          result = this.delegate.fetch(limit);
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
  public List<T> fetch(String filter) {
    ResilientCall call = this.fetch2.current();
    if (call.passesThrough()) {
      return this.delegate.fetch(filter);
    }
    CallKeys keys = CallKeys.NONE;
    long started = call.begin();
    Object run = null;
    for (int attempt = 1; ; attempt++) {
      try {
        Object ticket = call.admit(keys);
        List<T> result;
        try {
          result = this.delegate.fetch(filter);
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
