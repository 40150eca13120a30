package dev.brace.reactor;

import dev.brace.runtime.support.ResilientCall;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What a generated method returning {@code Mono} or {@code Flux} is made of, one statement:
 *
 * <pre>{@code
 * public Mono<String> item(String id) {
 *   return ReactorCalls.mono(this.item, this.delegate, id, null, null, null, 0L, 0L);
 * }
 * }</pre>
 *
 * <p>Calling the method only builds the publisher; nothing reaches the delegate until a
 * subscription. Each subscription is one call through the whole sequence, on the policies the call
 * has at that moment, and each attempt calls the delegate's method again and subscribes to what it
 * returns, with the subscriber's Reactor {@code Context}. Waits run on the registry's scheduler;
 * nothing blocks. A subscriber that cancels gives back every permit and ticket the call holds,
 * without an outcome.
 *
 * <ul>
 *   <li>{@code Mono}: every pattern, as for a {@code CompletionStage} (the same driver runs it); a
 *       timeout cancels the upstream subscription and signals {@code TimeoutExceededException}.
 *   <li>{@code Flux}: breaker, limiter and bulkhead around the whole stream (a permit from
 *       subscription to the terminal signal or the cancel); a timeout bounds the time to the first
 *       element; a retry resubscribes, and a fallback answers, only while no element has been
 *       emitted. No hedge, no stale answers.
 * </ul>
 *
 * <p>Its presence on the class path is what lets {@code brace-processor} accept methods returning
 * {@code Mono} or {@code Flux}.
 */
public final class ReactorCalls {
  private ReactorCalls() {}

  /**
   * A {@code Mono} whose every subscription is one call through {@code call}'s patterns.
   *
   * @param call the method's resolved call
   * @param target the delegate
   * @param a the first reference argument (see {@code dev.brace.runtime.support.Arguments} for the
   *     slots), or null
   * @param b the second, or null
   * @param c the third, or null
   * @param d the fourth, or null
   * @param x the first primitive argument widened to a {@code long}, or 0
   * @param y the second, or 0
   * @param <T> the value type
   * @return the publisher; every failure, refusals included, is its error signal
   */
  public static <T> Mono<T> mono(ResilientCall call, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    return new ResilientMono<>(call, FallbackAnswers.PUBLISHER, target, a, b, c, d, x, y);
  }

  /**
   * A {@code Flux} whose every subscription is one call through {@code call}'s patterns.
   *
   * @param call the method's resolved call
   * @param target the delegate
   * @param a the first reference argument, or null
   * @param b the second, or null
   * @param c the third, or null
   * @param d the fourth, or null
   * @param x the first primitive argument widened to a {@code long}, or 0
   * @param y the second, or 0
   * @param <T> the element type
   * @return the publisher; every failure, refusals included, is its error signal
   */
  public static <T> Flux<T> flux(ResilientCall call, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    return new ResilientFlux<>(call, FallbackAnswers.PUBLISHER, target, a, b, c, d, x, y);
  }

  /**
   * A {@code Mono} method's fallback that returns a plain value answers with this: the value, none
   * when it is null. (The generated fallback lambda wraps it; only the compiler knows which of a
   * value and a {@code Mono} the fallback method returns.)
   *
   * @param value what the fallback method returned
   * @param <T> the value type
   * @return a {@code Mono} of it
   */
  public static <T> Mono<T> answer(T value) {
    return Mono.justOrEmpty(value);
  }
}
