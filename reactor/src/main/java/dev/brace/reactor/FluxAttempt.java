package dev.brace.reactor;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.spi.driver.DelegateCall;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * One subscription a {@link FluxCall} makes: to the {@code Flux} an attempt's delegate call
 * returned, or to the fallback's answer. Its own object per subscription, so that a signal arriving
 * late from an attempt that was timed out or cancelled is told apart from the next attempt's.
 * Demand asked for before the upstream's subscription arrives is kept and passed on then. As a
 * {@link DelegateCall}, it is the attempt's delegate call, which the call's execution launches.
 *
 * @param <T> the element type
 */
final class FluxAttempt<T> extends Operators.DeferredSubscription implements CoreSubscriber<T>, DelegateCall {
  private final FluxCall<T> call;
  /** For the fallback's subscription: the failure it answers; null for an attempt. */
  private final Throwable answering;
  /** Whether this attempt has passed an element on; written and read by its signals, which are serial. */
  boolean emitted;
  /** What fault injection stands in for the delegate with, until it has answered; null when nothing does. */
  private volatile Future<?> standIn;

  FluxAttempt(FluxCall<T> call, Throwable answering) {
    this.call = call;
    this.answering = answering;
  }

  @Override
  public Object call() throws Throwable {
    return call.invokeDelegate();
  }

  /**
   * The same delegate call, made later (after a latency fault injection adds) by whoever stands in
   * for the delegate, which expects a future: the publisher is its value.
   */
  @Override
  public DelegateCall detached() {
    return () -> CompletableFuture.completedFuture(call.invokeDelegate());
  }

  /** Subscribes to what the delegate returned for this attempt; anything but a publisher fails it. */
  void subscribeTo(Object returned) {
    Publisher<T> publisher;
    try {
      publisher = Publishers.of(returned, call.callName());
    } catch (NullPointerException noPublisher) {
      onError(noPublisher);
      return;
    }
    publisher.subscribe(this);
  }

  /**
   * Fault injection stood in for the delegate with a future: failed with the injected fault, or,
   * after an injected latency, completed with the publisher the delegate then returned (see {@link
   * #detached()}), to which this attempt then subscribes in the caller's context. A cancel of this
   * attempt cancels the future.
   */
  void follow(CompletableFuture<?> pending) {
    standIn = pending;
    if (isCancelled()) {
      pending.cancel(false);
      return;
    }
    pending.whenComplete((returned, failure) -> call.inCallersContext(() -> {
      if (failure != null) {
        onError(ExceptionFilter.unwrap(failure));
      } else if (!isCancelled()) {
        subscribeTo(returned);
      }
    }).run());
  }

  /** Also stops what stands in for the delegate's call, if anything still does. */
  @Override
  public void cancel() {
    super.cancel();
    Future<?> pending = standIn;
    if (pending != null) {
      pending.cancel(false);
    }
  }

  @Override
  public Context currentContext() {
    return call.context();
  }

  @Override
  public void onSubscribe(Subscription subscription) {
    set(subscription);
  }

  @Override
  public void onNext(T element) {
    if (answering == null) {
      call.next(this, element);
    } else {
      call.answerNext(element);
    }
  }

  @Override
  public void onError(Throwable failure) {
    if (answering == null) {
      call.attemptFailed(this, failure);
    } else {
      call.answerFailed(failure, answering);
    }
  }

  @Override
  public void onComplete() {
    if (answering == null) {
      call.attemptCompleted(this);
    } else {
      call.answerCompleted();
    }
  }
}
