package dev.brace.runtime.internal.sequence;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * An asynchronous call's future, which runs {@code onCompleted} once it completes, whoever
 * completes it: the driver, or the caller cancelling it, completing it or timing it out. Each way
 * to complete it is overridden rather than a stage added to it, which would cost every call a
 * further future and its callback.
 *
 * @param <T> the call's value type
 */
final class CallFuture<T> extends CompletableFuture<T> {
  private final Runnable onCompleted;

  /** @param onCompleted run after each completion that took effect; it must not throw */
  CallFuture(Runnable onCompleted) {
    this.onCompleted = onCompleted;
  }

  @Override
  public boolean complete(T value) {
    return afterCompletion(super.complete(value));
  }

  @Override
  public boolean completeExceptionally(Throwable failure) {
    return afterCompletion(super.completeExceptionally(failure));
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    return afterCompletion(super.cancel(mayInterruptIfRunning));
  }

  @Override
  public void obtrudeValue(T value) {
    super.obtrudeValue(value);
    onCompleted.run();
  }

  @Override
  public void obtrudeException(Throwable failure) {
    super.obtrudeException(failure);
    onCompleted.run();
  }

  /** The inherited one completes the future past {@link #complete}; this one goes through it. */
  @Override
  public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
    if (supplier == null || executor == null) {
      throw new NullPointerException();
    }
    executor.execute(() -> {
      T value;
      try {
        value = supplier.get();
      } catch (Throwable failure) {
        completeExceptionally(failure);
        return;
      }
      complete(value);
    });
    return this;
  }

  private boolean afterCompletion(boolean completed) {
    if (completed) {
      onCompleted.run();
    }
    return completed;
  }
}
