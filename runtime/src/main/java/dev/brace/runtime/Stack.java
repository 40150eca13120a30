package dev.brace.runtime;

import dev.brace.runtime.config.BulkheadConfig;
import dev.brace.runtime.config.ChaosConfig;
import dev.brace.runtime.config.CircuitBreakerConfig;
import dev.brace.runtime.config.FallbackConfig;
import dev.brace.runtime.config.HedgeConfig;
import dev.brace.runtime.config.RateLimitConfig;
import dev.brace.runtime.config.RetryConfig;
import dev.brace.runtime.config.StaleIfErrorConfig;
import dev.brace.runtime.config.TimeoutConfig;
import dev.brace.runtime.config.ConfigBuilder;
import dev.brace.runtime.support.CallDefinition;
import dev.brace.runtime.support.FallbackInvoker;
import dev.brace.runtime.support.ResilientCall;
import dev.brace.runtime.internal.Message;
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
 * wrapper (fallback, stale-if-error, retry, hedge, circuit breaker, rate limiter, bulkhead,
 * timeout, call). Breakers, limiters and bulkheads are shared by name with generated wrappers
 * through the registry, and every decision is made by the same runtime policies.
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
  private final ResilientCall resilient;

  private Stack(ResilientCall resilient) {
    this.resilient = resilient;
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
    return resilient.callName();
  }

  /**
   * @return the stack's resolved call, through which a module that adds forms of call to a stack
   *     runs them (brace-reactor's {@code ReactiveStack}: {@code Mono} and {@code Flux}); not meant
   *     for application code, which calls {@link #call} and {@link #callAsync}
   */
  public ResilientCall resilientCall() {
    return resilient;
  }

  /**
   * Runs {@code call} through every part of the stack.
   *
   * @param call the protected call
   * @return its value, or the fallback's
   * @throws Exception what ended the call, as itself (a refusal, a timeout or the call's own)
   * @throws IllegalArgumentException when a part is keyed: use {@link #call(String, Callable)}
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
    return resilient.call(call, key, null, null, null, 0L, 0L);
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
    return resilient.callAsync(call, key, null, null, null, 0L, 0L);
  }

  /**
   * A stack's call is the caller's own lambda, handed over as the call's target (its key, if any, in
   * the first slot): a {@code Callable} for {@link #call}, a {@code Supplier} of a future for {@link
   * #callAsync}.
   */
  private static Object invoke(int method, Object target, Object key, Object b, Object c, Object d, long x, long y)
      throws Exception {
    return target instanceof Callable ? ((Callable<?>) target).call() : ((Supplier<?>) target).get();
  }

  /** The fallback answers a synchronous call with its value, an asynchronous one with a completed future. */
  private static <T> FallbackInvoker answering(Function<? super Throwable, ? extends T> fallback) {
    return (method, target, args, failure) -> target instanceof Callable
        ? fallback.apply(failure)
        : CompletableFuture.completedFuture(fallback.apply(failure));
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
    private boolean chaos;

    private Builder(String callName) {
      this.callName = Objects.requireNonNull(callName, "callName");
      if (callName.isBlank()) {
        throw new IllegalArgumentException(Message.BLANK_NAME.format("stack", callName));
      }
      this.definition = CallDefinition.forStack(callName);
    }

    /**
     * @param settings the retry, named after the stack
     * @return this
     * @throws IllegalArgumentException when the stack already has a retry
     */
    public Builder<T> retry(Consumer<RetryConfig.Builder> settings) {
      return part(RetryConfig.builder(callName), settings);
    }

    /**
     * @param settings the hedge, named after the stack: with {@link Stack#call} each attempt runs on
     *     a worker thread while the caller waits; with {@link Stack#callAsync} each is a further
     *     call of the supplier
     * @return this
     * @throws IllegalArgumentException when the stack already has a hedge
     */
    public Builder<T> hedge(Consumer<HedgeConfig.Builder> settings) {
      return part(HedgeConfig.builder(callName), settings);
    }

    /**
     * @param name the circuit breaker's name, shared with every wrapper that names it
     * @param settings its settings; a {@code key} (any text naming the key, e.g. {@code "{tenant}"})
     *     makes it one breaker per key given to {@link Stack#call(String, Callable)}
     * @return this
     */
    public Builder<T> circuitBreaker(String name, Consumer<CircuitBreakerConfig.Builder> settings) {
      return part(CircuitBreakerConfig.builder(name), settings);
    }

    /**
     * @param name the rate limiter's name, shared with every wrapper that names it
     * @param settings its settings; {@code permits} is required; a {@code key} makes it one
     *     limiter per key given to {@link Stack#call(String, Callable)}
     * @return this
     */
    public Builder<T> rateLimit(String name, Consumer<RateLimitConfig.Builder> settings) {
      return part(RateLimitConfig.builder(name), settings);
    }

    /**
     * @param name the bulkhead's name, shared with every wrapper that names it
     * @param settings its settings
     * @return this
     */
    public Builder<T> bulkhead(String name, Consumer<BulkheadConfig.Builder> settings) {
      return part(BulkheadConfig.builder(name), settings);
    }

    /**
     * Tags every call of the stack with a criticality, which its bulkhead admits by (as {@code
     * @Criticality} does for a method): {@code CRITICAL} up to the whole limit, {@code DEFAULT} (the
     * default) up to {@code defaultShare} of it, {@code SHEDDABLE} up to {@code sheddableShare}.
     *
     * @param level the stack's criticality
     * @return this
     * @throws NullPointerException when {@code level} is null
     */
    public Builder<T> criticality(dev.brace.Criticality.Level level) {
      definition.criticality(level);
      return this;
    }

    /**
     * @param settings the timeout, named after the stack; {@code duration} is required
     * @return this
     */
    public Builder<T> timeout(Consumer<TimeoutConfig.Builder> settings) {
      return part(TimeoutConfig.builder(callName), settings);
    }

    /**
     * Marks the protected call as one the dependency may act on twice if it is sent twice, as
     * {@code @NotIdempotent} marks an annotated method: its retry may retry only failures that
     * prove the request was never sent ({@link dev.brace.runtime.config.Idempotence#NEVER_SENT}),
     * never a result, and configuration cannot widen that.
     *
     * @return this
     */
    public Builder<T> notIdempotent() {
      definition.notIdempotent();
      return this;
    }

    /**
     * Remembers every result per key and answers a failure with the latest one while it is no
     * older than {@code maxAge}; with {@code fresh}, answers without calling while it is younger
     * than that, one call per key at a time. The key is the one given to {@link Stack#call(String,
     * Callable)}; a stack called without one remembers one result.
     *
     * @param settings its settings, named after the stack
     * @return this
     * @throws IllegalArgumentException when the stack already has one
     */
    public Builder<T> staleIfError(Consumer<StaleIfErrorConfig.Builder> settings) {
      return part(StaleIfErrorConfig.builder(callName), settings);
    }

    /**
     * Fault injection written with the stack, under its name: the lowest layer, which {@code
     * Registry.builder().chaos(name, …)}, {@code BRACE_CHAOS_<NAME>_…} and {@code brace.chaos.<name>.…}
     * override. Like every fault injection setting it does nothing unless fault injection is switched
     * on ({@code BRACE_CHAOS_ENABLED=true}), so a stack may carry a rehearsal that stays off in
     * production.
     *
     * @param settings e.g. {@code c -> c.faultRate(0.2).latency("2s").latencyRate(0.1)}
     * @return this
     * @throws dev.brace.runtime.ConfigurationException when a setting is refused
     * @throws IllegalArgumentException when the stack already has fault injection
     */
    public Builder<T> chaos(Consumer<ChaosConfig.Builder> settings) {
      if (chaos) {
        throw new IllegalArgumentException(Message.STACK_DUPLICATE_PART.format(callName, "fault injection"));
      }
      chaos = true;
      ChaosConfig.Builder written = ChaosConfig.builder(callName);
      Objects.requireNonNull(settings, "settings").accept(written);
      definition.chaos(written);
      empty = false;
      return this;
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
      part(FallbackConfig.builder(callName), settings);
      this.fallback = fallback;
      return this;
    }

    private <B extends ConfigBuilder<B>> Builder<T> part(B part, Consumer<B> settings) {
      Objects.requireNonNull(settings, "settings").accept(part);
      try {
        definition.with(part);
      } catch (IllegalArgumentException twice) {
        throw new IllegalArgumentException(Message.STACK_DUPLICATE_PART.format(callName, part.kind().description()), twice);
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
     * @throws ConfigurationException when a setting is invalid or conflicts with another site, or
     *     the call is {@linkplain #notIdempotent() not idempotent} and its retry could repeat a request
     *     that was sent
     */
    public Stack<T> build(Registry registry) {
      Objects.requireNonNull(registry, "registry");
      if (empty) {
        throw new IllegalStateException(Message.STACK_EMPTY.format(
            callName, "staleIfError, retry, hedge, circuitBreaker, rateLimit, bulkhead, timeout, fallback"));
      }
      definition.invokes(Stack::invoke, 0);
      if (fallback != null) {
        definition.fallback(answering(fallback));
      }
      return new Stack<>(registry.resolve(definition.build()));
    }
  }
}
