package dev.brace.reactor;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.core.Fuseable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * One attempt's subscription to the {@code Mono} the delegate returned, as the future the
 * asynchronous driver follows: it completes with the value (null when the {@code Mono} is empty)
 * or the error, and cancelling it cancels the subscription — so a timeout, a hedge that lost or a
 * subscriber that cancelled stops the request. The subscription carries the {@code Context} of the
 * wrapper's subscriber, unchanged.
 *
 * @param <T> the value type
 */
final class MonoStage<T> extends CompletableFuture<T> implements CoreSubscriber<T> {
  @SuppressWarnings("rawtypes")
  private static final AtomicReferenceFieldUpdater<MonoStage, Subscription> UPSTREAM =
      AtomicReferenceFieldUpdater.newUpdater(MonoStage.class, Subscription.class, "upstream");

  private final Context context;
  private volatile Subscription upstream;

  private MonoStage(Context context) {
    this.context = context;
  }

  /**
   * @param returned what the delegate (or the fallback) returned: a {@code Mono}, or another
   *     publisher, of which the first element is taken
   * @param context the wrapper's subscriber's
   * @param source who returned it, for the message when it is null
   * @return the attempt's outcome
   * @throws NullPointerException naming {@code source} when it returned null
   */
  @SuppressWarnings("unchecked")
  static <T> CompletableFuture<T> of(Object returned, Context context, String source) {
    if (returned == null) {
      throw new NullPointerException(source + " returned null instead of a Mono");
    }
    if (returned instanceof Fuseable.ScalarCallable) {
      // Mono.just, Mono.empty and Mono.error hold their outcome already (Reactor's own operators
      // read it the same way): no subscription to make, and nothing to cancel.
      try {
        return CompletableFuture.completedFuture(((Callable<T>) returned).call());
      } catch (Throwable failure) {
        return CompletableFuture.failedFuture(Exceptions.unwrap(failure));
      }
    }
    Mono<T> mono = returned instanceof Mono ? (Mono<T>) returned : Mono.from((Publisher<T>) returned);
    MonoStage<T> stage = new MonoStage<>(context);
    mono.subscribe(stage);
    return stage;
  }

  @Override
  public Context currentContext() {
    return context;
  }

  @Override
  public void onSubscribe(Subscription subscription) {
    if (Operators.setOnce(UPSTREAM, this, subscription)) {
      subscription.request(Long.MAX_VALUE);
    }
  }

  @Override
  public void onNext(T value) {
    complete(value);
  }

  @Override
  public void onError(Throwable failure) {
    completeExceptionally(failure);
  }

  @Override
  public void onComplete() {
    complete(null);
  }

  /** Also cancels the subscription, whatever the future's state: the attempt is over. */
  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    Operators.terminate(UPSTREAM, this);
    return cancelled;
  }
}
