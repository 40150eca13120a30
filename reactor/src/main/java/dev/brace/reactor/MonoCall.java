package dev.brace.reactor;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.support.StageAdapter;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;

/**
 * One subscription of a wrapper's {@code Mono}: the subscription its subscriber holds, the
 * adapter through which the asynchronous driver subscribes each attempt to the delegate's {@code
 * Mono} (with this subscriber's Reactor {@code Context}), and the end of the call's future, which
 * it passes on as the {@code Mono}'s signal. A cancel cancels that future, which stops what is in
 * flight — an attempt's subscription, a backoff, a wait for a permit — and gives back what it
 * holds, as a caller who cancels a {@code CompletableFuture} does.
 *
 * @param <T> the value type
 */
final class MonoCall<T> extends Operators.MonoSubscriber<T, T> implements StageAdapter, BiConsumer<T, Throwable> {
  private final String callName;
  private final FallbackAnswers answers;
  /** The call's future, once the driver has returned it. */
  private volatile CompletableFuture<T> future;

  MonoCall(CoreSubscriber<? super T> actual, String callName, FallbackAnswers answers) {
    super(actual);
    this.callName = callName;
    this.answers = answers;
  }

  /** Passes the call's outcome on when it comes; at once when it already has. */
  void follow(CompletableFuture<T> returned) {
    if (returned.isDone() && !returned.isCompletedExceptionally()) {
      // The common case, a call answered on the subscriber's thread, costs no callback.
      accept(returned.getNow(null), null);
      return;
    }
    future = returned;
    if (isCancelled()) {
      // The cancel came before there was a future to cancel.
      returned.cancel(true);
      return;
    }
    returned.whenComplete(this);
  }

  /** The call's outcome: a value, none (null), or the failure that ended it. */
  @Override
  public void accept(T value, Throwable failure) {
    if (isCancelled()) {
      return;
    }
    if (failure != null) {
      Throwable cause = ExceptionFilter.unwrap(failure);
      if (!(cause instanceof CancellationException)) {
        actual.onError(cause);
      }
    } else if (value == null) {
      actual.onComplete();
    } else {
      complete(value);
    }
  }

  @Override
  public void cancel() {
    super.cancel();
    CompletableFuture<T> returned = future;
    if (returned != null) {
      returned.cancel(true);
    }
  }

  @Override
  public CompletionStage<?> attempt(Object returned) {
    return MonoStage.of(returned, currentContext(), callName);
  }

  @Override
  public CompletionStage<?> answer(Object answered) {
    if (answers == FallbackAnswers.STAGE) {
      return (CompletionStage<?>) answered;
    }
    return MonoStage.of(answered, currentContext(), "the fallback of " + callName);
  }
}
