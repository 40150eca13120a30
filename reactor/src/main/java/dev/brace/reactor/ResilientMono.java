package dev.brace.reactor;

import dev.brace.runtime.spi.driver.ResolvedCall;
import dev.brace.runtime.support.ResilientCall;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * The {@code Mono} a wrapper returns: the call and its arguments, held until a subscription, each
 * of which runs one call. A {@code Mono} call is an asynchronous call whose attempts subscribe to
 * the delegate's {@code Mono} ({@link MonoCall} adapts one to the other), so every pattern behaves
 * exactly as it does for a {@code CompletionStage}, decided by the same steps.
 *
 * @param <T> the value type
 */
final class ResilientMono<T> extends Mono<T> {
  private final ResilientCall call;
  private final FallbackAnswers answers;
  private final Object target;
  private final Object a;
  private final Object b;
  private final Object c;
  private final Object d;
  private final long x;
  private final long y;

  ResilientMono(ResilientCall call, FallbackAnswers answers, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    this.call = call;
    this.answers = answers;
    this.target = target;
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    this.x = x;
    this.y = y;
  }

  @Override
  public void subscribe(CoreSubscriber<? super T> actual) {
    // One read of the policies per subscription: a reconfiguration applies from the next one.
    ResolvedCall resolved = call.resolved();
    MonoCall<T> subscription = new MonoCall<>(actual, resolved.callName(), answers);
    actual.onSubscribe(subscription);
    if (!subscription.isCancelled()) {
      subscription.follow(resolved.<T>callAsync(subscription, target, a, b, c, d, x, y));
    }
  }
}
