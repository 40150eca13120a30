package p;

import dev.brace.runtime.Registry;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.support.SlotInvoker;
import dev.brace.runtime.support.WrapperFactory;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import javax.annotation.processing.Generated;

@Generated("dev.brace.processor.BraceProcessor")
public final class ResilientRepo<T extends Comparable<T>> implements Repo<T> {
  private static final SlotInvoker DELEGATE_TO = ResilientRepo::delegateTo;

  private static final RetryConfig.Builder RETRY_REPO_FETCH = RetryConfig.builder("Repo.fetch").declaredOnType("Repo");

  private static final Function<String, IOException> NEW_IO_EXCEPTION = IOException::new;

  private static final Function<String, TimeoutException> NEW_TIMEOUT_EXCEPTION = TimeoutException::new;

  private static final CallDefinition GET = CallDefinition.builder("Repo.get")
    .with(RetryConfig.builder("Repo.get").declaredOnType("Repo"))
    .throwsTypes(IOException.class, TimeoutException.class)
    .faultFactory(IOException.class, NEW_IO_EXCEPTION)
    .faultFactory(TimeoutException.class, NEW_TIMEOUT_EXCEPTION)
    .invokes(DELEGATE_TO, 0)
    .build();

  private static final CallDefinition MAX = CallDefinition.builder("Repo.max")
    .with(RetryConfig.builder("Repo.max").declaredOnType("Repo"))
    .invokes(DELEGATE_TO, 1)
    .build();

  private static final CallDefinition PUT_ALL = CallDefinition.builder("Repo.putAll")
    .with(RetryConfig.builder("Repo.putAll").declaredOnType("Repo"))
    .invokes(DELEGATE_TO, 2)
    .build();

  private static final CallDefinition SIZES = CallDefinition.builder("Repo.sizes")
    .with(RetryConfig.builder("Repo.sizes").declaredOnType("Repo"))
    .invokes(DELEGATE_TO, 3)
    .build();

  private static final CallDefinition CLEAR = CallDefinition.builder("Repo.clear")
    .with(RetryConfig.builder("Repo.clear").declaredOnType("Repo"))
    .invokes(DELEGATE_TO, 4)
    .build();

  private static final CallDefinition FETCH = CallDefinition.builder("Repo.fetch")
    .with(RETRY_REPO_FETCH)
    .invokes(DELEGATE_TO, 5)
    .build();

  private static final CallDefinition FETCH_2 = CallDefinition.builder("Repo.fetch")
    .with(RETRY_REPO_FETCH)
    .invokes(DELEGATE_TO, 6)
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
    long at = this.get.instant();
    Object held = this.get.admitNow(at);
    if (this.get.admitted(held)) {
      try {
        T result = this.delegate.get(id);
        this.get.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.get.failed(held, at, failure);
      }
    }
    return this.get.staged(held, at, this.delegate, null, null, null, null, id, 0L);
  }

  @Override
  public <R extends Number & Comparable<R>> R max(List<? extends R> values) {
    long at = this.max.instant();
    Object held = this.max.admitNow(at);
    if (this.max.admitted(held)) {
      try {
        R result = this.delegate.max(values);
        this.max.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.max.failed(held, at, failure);
      }
    }
    return this.max.staged(held, at, this.delegate, values, null, null, null, 0L, 0L);
  }

  @Override
  public void putAll(String... items) {
    long at = this.putAll.instant();
    Object held = this.putAll.admitNow(at);
    if (this.putAll.admitted(held)) {
      try {
        this.delegate.putAll(items);
        this.putAll.succeeded(held, at);
        return;
      } catch (Throwable failure) {
        held = this.putAll.failed(held, at, failure);
      }
    }
    this.putAll.staged(held, at, this.delegate, items, null, null, null, 0L, 0L);
  }

  @Override
  public int[] sizes(byte[][] data, char c, boolean flag, double d, float f, short s) {
    long at = this.sizes.instant();
    Object held = this.sizes.admitNow(at);
    if (this.sizes.admitted(held)) {
      try {
        int[] result = this.delegate.sizes(data, c, flag, d, f, s);
        this.sizes.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.sizes.failed(held, at, failure);
      }
    }
    return this.sizes.staged(held, at, this.delegate, new Object[] {data, c, flag, d, f, s}, null, null, null, 0L, 0L);
  }

  @Override
  public void clear() {
    long at = this.clear.instant();
    Object held = this.clear.admitNow(at);
    if (this.clear.admitted(held)) {
      try {
        this.delegate.clear();
        this.clear.succeeded(held, at);
        return;
      } catch (Throwable failure) {
        held = this.clear.failed(held, at, failure);
      }
    }
    this.clear.staged(held, at, this.delegate, null, null, null, null, 0L, 0L);
  }

  @Override
  public List<T> fetch(int limit) {
    long at = this.fetch.instant();
    Object held = this.fetch.admitNow(at);
    if (this.fetch.admitted(held)) {
      try {
        List<T> result = this.delegate.fetch(limit);
        this.fetch.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.fetch.failed(held, at, failure);
      }
    }
    return this.fetch.staged(held, at, this.delegate, null, null, null, null, limit, 0L);
  }

  @Override
  public List<T> fetch(String filter) {
    long at = this.fetch2.instant();
    Object held = this.fetch2.admitNow(at);
    if (this.fetch2.admitted(held)) {
      try {
        List<T> result = this.delegate.fetch(filter);
        this.fetch2.succeeded(held, at);
        return result;
      } catch (Throwable failure) {
        held = this.fetch2.failed(held, at, failure);
      }
    }
    return this.fetch2.staged(held, at, this.delegate, filter, null, null, null, 0L, 0L);
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

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object delegateTo(int method, Object target, Object a, Object b, Object c,
      Object d, long x, long y) throws Throwable {
    Repo delegate = (Repo) target;
    switch (method) {
      case 0:
        return delegate.get(x);
      case 1:
        return invokeMax(target, a, b, c, d, x, y);
      case 2:
        delegate.putAll((String[]) a);
        return null;
      case 3:
        return delegate.sizes((byte[][]) ((Object[]) a)[0], (Character) ((Object[]) a)[1], (Boolean) ((Object[]) a)[2], (Double) ((Object[]) a)[3], (Float) ((Object[]) a)[4], (Short) ((Object[]) a)[5]);
      case 4:
        delegate.clear();
        return null;
      case 5:
        return delegate.fetch((int) x);
      case 6:
        return delegate.fetch((String) a);
      default:
        throw new IllegalArgumentException("no method " + method);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <T extends Comparable<T>, R extends Number & Comparable<R>> Object invokeMax(
      Object target, Object a, Object b, Object c, Object d, long x, long y) throws Throwable {
    Repo<T> delegate = (Repo<T>) target;
    return delegate.max((List<? extends R>) a);
  }

  /**
   * Lists Repo's wrapper in the index {@code Brace.wrap} reads.
   */
  @WrapperFactory.Indexed
  public static final class Factory implements WrapperFactory {
    @Override
    public Class<?> type() {
      return Repo.class;
    }

    @Override
    public Class<?> wrapperType() {
      return ResilientRepo.class;
    }

    @Override
    public Object wrap(Object delegate, Registry registry) {
      return ResilientRepo.wrap((Repo<?>) delegate, registry);
    }
  }
}
