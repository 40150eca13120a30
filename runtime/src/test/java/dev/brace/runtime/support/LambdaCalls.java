package dev.brace.runtime.support;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Tests of the runtime drive a {@link ResilientCall} with lambdas, as a call site that hands its
 * attempt, fallback and keys over per call would: the lambdas travel as the call's target, and the
 * definition's invokers (which {@link #builder} puts in) call them. Generated wrappers pass their
 * arguments in slots instead; the integration tests drive those.
 */
public final class LambdaCalls {
  private LambdaCalls() {}

  /** One synchronous attempt. */
  @FunctionalInterface
  public interface Attempt<T> {
    T call() throws Throwable;
  }

  /** Starts one asynchronous attempt. */
  @FunctionalInterface
  public interface AsyncStart<T> {
    CompletionStage<T> start() throws Throwable;
  }

  /** A synchronous fallback. */
  @FunctionalInterface
  public interface Fallback<T> {
    T apply(Throwable failure) throws Throwable;
  }

  /** An asynchronous fallback. */
  @FunctionalInterface
  public interface AsyncFallback<T> {
    CompletionStage<T> apply(Throwable failure) throws Throwable;
  }

  /** What one call hands over: its attempt (sync or async), fallback and keys. */
  private record Lambdas(Object attempt, Object fallback, Supplier<CallKeys> keys) {}

  /** @return a definition builder whose invokers call the lambdas each call hands over */
  public static CallDefinition.Builder builder(String callName) {
    return wire(CallDefinition.builder(callName));
  }

  /** @return a stack's definition builder, wired the same way */
  public static CallDefinition.Builder forStack(String stackName) {
    return CallDefinition.forStack(stackName).invokes(LambdaCalls::invoke, 0);
  }

  private static CallDefinition.Builder wire(CallDefinition.Builder builder) {
    return builder.invokes(LambdaCalls::invoke, 0).fallback(LambdaCalls::fallBack).keys(LambdaCalls::keys);
  }

  public static <T> T call(ResilientCall call, Attempt<T> attempt, Fallback<T> fallback) {
    return call(call, null, attempt, fallback);
  }

  public static <T> T call(ResilientCall call, Supplier<CallKeys> keys, Attempt<T> attempt, Fallback<T> fallback) {
    Lambdas lambdas = new Lambdas(attempt, fallback, keys);
    return call.call(lambdas, lambdas, null, null, null, 0L, 0L);
  }

  public static <T> CompletableFuture<T> callAsync(ResilientCall call, AsyncStart<T> attempt, AsyncFallback<T> fallback) {
    return callAsync(call, null, attempt, fallback);
  }

  public static <T> CompletableFuture<T> callAsync(
      ResilientCall call, Supplier<CallKeys> keys, AsyncStart<T> attempt, AsyncFallback<T> fallback) {
    Lambdas lambdas = new Lambdas(attempt, fallback, keys);
    return call.callAsync(lambdas, lambdas, null, null, null, 0L, 0L);
  }

  private static Object invoke(int method, Object target, Arguments args) throws Throwable {
    Object attempt = ((Lambdas) target).attempt();
    return attempt instanceof AsyncStart ? ((AsyncStart<?>) attempt).start() : ((Attempt<?>) attempt).call();
  }

  private static Object fallBack(int method, Object target, Arguments args, Throwable failure) throws Throwable {
    Lambdas lambdas = (Lambdas) target;
    if (lambdas.fallback() == null) {
      throw failure;
    }
    return lambdas.fallback() instanceof AsyncFallback
        ? ((AsyncFallback<?>) lambdas.fallback()).apply(failure)
        : ((Fallback<?>) lambdas.fallback()).apply(failure);
  }

  private static CallKeys keys(int method, Arguments args) {
    Lambdas lambdas = args.a() instanceof Lambdas given ? given : null;
    return lambdas == null || lambdas.keys() == null ? CallKeys.NONE : lambdas.keys().get();
  }
}
