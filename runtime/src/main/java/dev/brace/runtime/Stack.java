package dev.brace.runtime;

import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.generated.CallDefinition;
import dev.brace.runtime.internal.sequence.CallGuard;
import dev.brace.runtime.generated.Failures;
import dev.brace.runtime.internal.sequence.SyncDriver;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The annotations' policies for call sites that cannot be annotated: a lambda, a third-party
 * client. Built once from named parts, in any order; applied in the one order of every Brace
 * wrapper (fallback, retry, circuit breaker, rate limiter, bulkhead, timeout, call). Breakers,
 * limiters and bulkheads are shared by name with generated wrappers through the registry, and
 * every decision is made by the same runtime policies.
 *
 * <pre>{@code
 * Stack<List<String>> recs = Stack.<List<String>>builder("recs-list")
 *     .retry(r -> r.maxAttempts(3).on(IOException.class))
 *     .circuitBreaker("recs-api", b -> b.failureThreshold(5))
 *     .timeout(t -> t.duration("1s"))
 *     .fallback(failure -> List.of())
 *     .build(registry);
 * List<String> items = recs.call(() -> client.fetch(userId));
 * }</pre>
 *
 * <p>Thread-safe; build once and reuse.
 *
 * @param <T> the value the protected calls return
 */
public final class Stack<T> {
  private final CallGuard guard;
  private final Function<? super Throwable, ? extends T> fallback;

  private Stack(CallGuard guard, Function<? super Throwable, ? extends T> fallback) {
    this.guard = guard;
    this.fallback = fallback;
  }

  /**
   * @param callName the stack's name: retry, timeout and fallback are configured under it
   * @param <T> the value the protected calls return
   * @return a builder with no parts
   */
  public static <T> Builder<T> builder(String callName) {
    return new Builder<>(callName);
  }

  /** @return the stack's name */
  public String name() {
    return guard.callName();
  }

  /**
   * Runs {@code call} through every part of the stack.
   *
   * @param call the protected call
   * @return its value, or the fallback's
   * @throws Exception what ended the call, as itself (a refusal, a timeout or the call's own)
   * @throws NullPointerException when {@code call} is null
   */
  public T call(Callable<? extends T> call) throws Exception {
    return call(null, call);
  }

  /**
   * Runs {@code call} through every part of the stack, with one key for its keyed parts: a
   * breaker or rate limiter whose settings give a {@code key} is one instance per key value
   * ({@code name[key]}).
   *
   * @param key the key of this call, for every keyed part; null only when no part is keyed
   * @param call the protected call
   * @return its value, or the fallback's
   * @throws Exception what ended the call, as itself (a refusal, a timeout or the call's own)
   * @throws IllegalArgumentException when a part is keyed and {@code key} is null
   * @throws NullPointerException when {@code call} is null
   */
  public T call(String key, Callable<? extends T> call) throws Exception {
    Objects.requireNonNull(call, "call");
    try {
      return SyncDriver.call(guard, breakerKey(key), limiterKey(key), call::call, fallback == null ? null : fallback::apply);
    } catch (Exception | Error thrown) {
      throw thrown;
    } catch (Throwable impossible) {
      throw Failures.rethrow(impossible);
    }
  }

  /**
   * Runs an asynchronous call through every part of the stack without blocking a thread.
   *
   * @param call starts the protected call; a throw or a null future counts as a failed attempt
   * @return the call's future; refusals and failures complete it exceptionally
   * @throws NullPointerException when {@code call} is null
   */
  public CompletableFuture<T> callAsync(Supplier<? extends CompletionStage<? extends T>> call) {
    return callAsync(null, call);
  }

  /**
   * Runs an asynchronous call through every part of the stack without blocking a thread, with one
   * key for its keyed parts (see {@link #call(String, Callable)}).
   *
   * @param key the key of this call, for every keyed part; null only when no part is keyed
   * @param call starts the protected call; a throw or a null future counts as a failed attempt
   * @return the call's future; refusals, failures and a missing key complete it exceptionally
   * @throws NullPointerException when {@code call} is null
   */
  public CompletableFuture<T> callAsync(String key, Supplier<? extends CompletionStage<? extends T>> call) {
    Objects.requireNonNull(call, "call");
    String breakerKey;
    String limiterKey;
    try {
      breakerKey = breakerKey(key);
      limiterKey = limiterKey(key);
    } catch (IllegalArgumentException missing) {
      return CompletableFuture.failedFuture(missing);
    }
    return guard.callAsync(
        breakerKey,
        limiterKey,
        () -> widen(call.get()),
        fallback == null ? null : failure -> CompletableFuture.completedFuture(fallback.apply(failure)));
  }

  private String breakerKey(String key) {
    return guard.breakerKeyed() ? required(key) : null;
  }

  private String limiterKey(String key) {
    return guard.limiterKeyed() ? required(key) : null;
  }

  private String required(String key) {
    if (key == null) {
      throw new IllegalArgumentException(
          "stack '" + name() + "' has a keyed part; call it with a key: call(key, call) or callAsync(key, call)");
    }
    return key;
  }

  @SuppressWarnings("unchecked")
  private static <T> CompletionStage<T> widen(CompletionStage<? extends T> stage) {
    return (CompletionStage<T>) stage;
  }

  /**
   * Collects the parts of a {@link Stack}; each kind at most once, in any order.
   *
   * @param <T> the value the protected calls return
   */
  public static final class Builder<T> {
    private final String callName;
    private final CallDefinition.Builder definition;
    private Function<? super Throwable, ? extends T> fallback;
    private boolean empty = true;

    private Builder(String callName) {
      this.callName = Objects.requireNonNull(callName, "callName");
      if (callName.isBlank()) {
        throw new IllegalArgumentException("a stack's name must not be blank");
      }
      this.definition = CallDefinition.builder(callName);
    }

    /**
     * @param settings the retry, named after the stack
     * @return this
     * @throws IllegalArgumentException when the stack already has a retry
     */
    public Builder<T> retry(Consumer<RetryConfig.Builder> settings) {
      return part(() -> definition.retry(configured(RetryConfig.builder(callName), settings)));
    }

    /**
     * @param name the circuit breaker's name, shared with every wrapper that names it
     * @param settings its settings
     * @return this
     */
    public Builder<T> circuitBreaker(String name, Consumer<CircuitBreakerConfig.Builder> settings) {
      return part(() -> definition.circuitBreaker(configured(CircuitBreakerConfig.builder(name), settings)));
    }

    /**
     * @param name the rate limiter's name, shared with every wrapper that names it
     * @param settings its settings; {@code permits} is required
     * @return this
     */
    public Builder<T> rateLimit(String name, Consumer<RateLimitConfig.Builder> settings) {
      return part(() -> definition.rateLimit(configured(RateLimitConfig.builder(name), settings)));
    }

    /**
     * @param name the bulkhead's name, shared with every wrapper that names it
     * @param settings its settings
     * @return this
     */
    public Builder<T> bulkhead(String name, Consumer<BulkheadConfig.Builder> settings) {
      return part(() -> definition.bulkhead(configured(BulkheadConfig.builder(name), settings)));
    }

    /**
     * @param settings the timeout, named after the stack; {@code duration} is required
     * @return this
     */
    public Builder<T> timeout(Consumer<TimeoutConfig.Builder> settings) {
      return part(() -> definition.timeout(configured(TimeoutConfig.builder(callName), settings)));
    }

    /**
     * A fallback for every {@link Exception}.
     *
     * @param fallback the value for a failure
     * @return this
     */
    public Builder<T> fallback(Function<? super Throwable, ? extends T> fallback) {
      return fallback(settings -> { }, fallback);
    }

    /**
     * @param settings which failures it answers ({@code on}, {@code ignore})
     * @param fallback the value for a failure it answers
     * @return this
     */
    public Builder<T> fallback(Consumer<FallbackConfig.Builder> settings, Function<? super Throwable, ? extends T> fallback) {
      Objects.requireNonNull(fallback, "fallback");
      part(() -> definition.fallback(configured(FallbackConfig.builder(callName), settings)));
      this.fallback = fallback;
      return this;
    }

    private static <B> B configured(B builder, Consumer<B> settings) {
      Objects.requireNonNull(settings, "settings").accept(builder);
      return builder;
    }

    private Builder<T> part(Runnable add) {
      try {
        add.run();
      } catch (IllegalArgumentException twice) {
        throw new IllegalArgumentException("stack '" + callName + "': " + twice.getMessage()
            + "; two parts of one kind need an order only you know: nest two stacks instead", twice);
      }
      empty = false;
      return this;
    }

    /**
     * @return the stack, on the {@linkplain Registry#defaultRegistry() default registry}
     * @throws IllegalStateException when the stack has no part
     * @throws ConfigurationException when a setting is invalid or conflicts with another site
     */
    public Stack<T> build() {
      return build(Registry.defaultRegistry());
    }

    /**
     * @param registry where named instances are shared
     * @return the stack
     * @throws IllegalStateException when the stack has no part
     * @throws ConfigurationException when a setting is invalid or conflicts with another site
     */
    public Stack<T> build(Registry registry) {
      Objects.requireNonNull(registry, "registry");
      if (empty) {
        throw new IllegalStateException(
            "stack '" + callName + "' has no part; it would run the call unchanged. Add at least one of"
                + " retry, circuitBreaker, rateLimit, bulkhead, timeout, fallback");
      }
      return new Stack<>(registry.guard(definition.build()), fallback);
    }
  }
}
