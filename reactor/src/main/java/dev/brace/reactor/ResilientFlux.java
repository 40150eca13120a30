package dev.brace.reactor;

import dev.brace.runtime.spi.driver.ResolvedCall;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.ResilientCall;
import org.reactivestreams.Publisher;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * The {@code Flux} a wrapper returns: the call and its arguments, held until a subscription, each
 * of which runs one call ({@link FluxCall}).
 *
 * @param <T> the element type
 */
final class ResilientFlux<T> extends Flux<T> {
  private final ResilientCall call;
  private final FallbackAnswers answers;
  private final Object target;
  /** Read by every subscription's attempts, never written after this is built. */
  private final Arguments arguments;

  ResilientFlux(ResilientCall call, FallbackAnswers answers, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    this.call = call;
    this.answers = answers;
    this.target = target;
    this.arguments = new Arguments().set(a, b, c, d, x, y);
  }

  @Override
  @SuppressWarnings("unchecked")
  public void subscribe(CoreSubscriber<? super T> actual) {
    ResolvedCall resolved = call.resolved();
    if (resolved.passesThrough()) {
      Publisher<T> direct;
      try {
        direct = (Publisher<T>) Publishers.of(resolved.invoke(target, arguments), resolved.callName());
      } catch (Throwable thrown) {
        Operators.error(actual, thrown);
        return;
      }
      direct.subscribe(actual);
      return;
    }
    if (resolved.hedged() || resolved.remembersAnswers()) {
      // The processor refuses both on a Flux method; a Stack can hold them, for its other forms.
      Operators.error(actual, new IllegalStateException(resolved.callName() + " has "
          + (resolved.hedged() ? "a hedge" : "stale answers") + ", which a Flux cannot have: a stream has no one"
          + " answer to hedge or remember; use mono(() -> flux.collectList()) to treat the whole stream as one"));
      return;
    }
    new FluxCall<>(actual, resolved, target, arguments, answers).start();
  }
}
