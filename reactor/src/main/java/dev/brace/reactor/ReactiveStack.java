package dev.brace.reactor;

import dev.brace.runtime.Stack;
import dev.brace.runtime.support.ResilientCall;
import java.util.Objects;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link Stack}'s policies for calls that return a {@code Mono} or a {@code Flux}, as a generated
 * wrapper applies them to methods that do: lazily, one call per subscription, nothing blocked.
 *
 * <pre>{@code
 * Stack<String> items = Stack.<String>builder("items")
 *     .retry(r -> r.maxAttempts(3))
 *     .circuitBreaker("items-api", b -> b.failureThreshold(5))
 *     .fallback(failure -> "unknown")
 *     .build(registry);
 * ReactiveStack<String> reactive = ReactiveStack.of(items);
 * Mono<String> item = reactive.mono(() -> webClient.get().uri("/items/{id}", id).retrieve().bodyToMono(String.class));
 * }</pre>
 *
 * <p>Each subscription calls the supplier once per attempt and subscribes to what it returns. The
 * stack's fallback function answers a {@code Mono} with its value (none when it is null) and a
 * {@code Flux} with that one element. A {@code Flux} takes neither a hedge nor stale answers: a
 * stack that has either fails each {@code flux} subscription with an {@code
 * IllegalStateException} (its {@code mono} form takes both).
 *
 * <p>Thread-safe, like the stack; as cheap to make as one object, so {@code
 * ReactiveStack.of(stack)} may be called per use.
 *
 * @param <T> the value the protected calls return
 */
public final class ReactiveStack<T> {
  private final ResilientCall call;

  private ReactiveStack(ResilientCall call) {
    this.call = call;
  }

  /**
   * @param stack the stack whose policies, instances and settings the reactive calls share
   * @param <T> the value the protected calls return
   * @return the stack's reactive forms
   * @throws NullPointerException when {@code stack} is null
   */
  public static <T> ReactiveStack<T> of(Stack<T> stack) {
    return new ReactiveStack<>(Objects.requireNonNull(stack, "stack").resilientCall());
  }

  /**
   * @param call starts one attempt; a throw or a null {@code Mono} counts as a failed attempt
   * @return a {@code Mono} each subscription of which is one call through every part of the stack
   * @throws IllegalArgumentException at subscription, as its error signal, when a part is keyed: use
   *     {@link #mono(String, Supplier)}
   * @throws NullPointerException when {@code call} is null
   */
  public Mono<T> mono(Supplier<? extends Mono<? extends T>> call) {
    return mono(null, call);
  }

  /**
   * @param key the key of this call, for every keyed part (see {@link Stack#call(String,
   *     java.util.concurrent.Callable)}); null only when no part is keyed
   * @param call starts one attempt; a throw or a null {@code Mono} counts as a failed attempt
   * @return a {@code Mono} each subscription of which is one call through every part of the stack
   * @throws NullPointerException when {@code call} is null
   */
  public Mono<T> mono(String key, Supplier<? extends Mono<? extends T>> call) {
    Objects.requireNonNull(call, "call");
    return new ResilientMono<>(this.call, FallbackAnswers.STAGE, call, key, null, null, null, 0L, 0L);
  }

  /**
   * @param call starts one attempt; a throw or a null {@code Flux} counts as a failed attempt
   * @return a {@code Flux} each subscription of which is one call through the stack's breaker,
   *     limiter, bulkhead, timeout (to the first element), retry and fallback (before the first element)
   * @throws NullPointerException when {@code call} is null
   */
  public Flux<T> flux(Supplier<? extends Flux<? extends T>> call) {
    return flux(null, call);
  }

  /**
   * @param key the key of this call, for every keyed part; null only when no part is keyed
   * @param call starts one attempt; a throw or a null {@code Flux} counts as a failed attempt
   * @return a {@code Flux} each subscription of which is one call through the stack's parts
   * @throws NullPointerException when {@code call} is null
   */
  public Flux<T> flux(String key, Supplier<? extends Flux<? extends T>> call) {
    Objects.requireNonNull(call, "call");
    return new ResilientFlux<>(this.call, FallbackAnswers.STAGE, call, key, null, null, null, 0L, 0L);
  }
}
