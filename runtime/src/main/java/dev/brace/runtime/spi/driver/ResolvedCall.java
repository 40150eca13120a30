package dev.brace.runtime.spi.driver;

import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.StageAdapter;
import java.util.concurrent.CompletableFuture;

/**
 * One call site's policies as the registry resolved them, as a driver sees them: what a form of
 * call (a {@code Flux}, a Kotlin {@code Flow}) starts each call on. A driver reads it once per call
 * ({@code ResilientCall.resolved()}), so a reconfiguration applies from the next call and never in
 * the middle of one.
 *
 * <p>The runtime implements it; a driver does not.
 */
public interface ResolvedCall {

  /** @return {@code Interface.method}, or a stack's name */
  String callName();

  /** @return whether no pattern applies: the driver calls the delegate directly ({@link #invoke}) */
  boolean passesThrough();

  /** @return whether one attempt, as the retry sees it, is a hedged group of attempts */
  boolean hedged();

  /** @return whether the call remembers its results to answer failures with ({@code @StaleIfError}) */
  boolean remembersAnswers();

  /**
   * Calls the delegate's method once, with no pattern around it: for a call that {@link
   * #passesThrough()}, and for an execution's {@link DelegateCall}.
   *
   * @param target the delegate
   * @param arguments the call's arguments
   * @return what the delegate's method returned
   * @throws Throwable what it threw, unchanged
   */
  Object invoke(Object target, Arguments arguments) throws Throwable;

  /**
   * Takes the current thread's context as a call's steps see it, for a driver that runs the call's
   * work where the runtime does not (a coroutine resumed by its dispatcher): inside an attempt's
   * delegate call ({@link CallExecution#launch}, or a {@link
   * dev.brace.runtime.support.StageAdapter#attempt}), it holds the caller's context and the
   * attempt's bound as the current deadline.
   *
   * @return the context, to install on the threads the work resumes on
   */
  CapturedContext captureContext();

  /**
   * Begins a call to walk attempt by attempt: its keys are computed, the retry budget gets its
   * deposit, the start is noted, and the caller's context is captured on this thread.
   *
   * @param arguments the call's arguments, read for its keys
   * @return the call, before its first attempt
   * @throws IllegalArgumentException when a key part is null: the caller's mistake, which ends the
   *     call at once, never retried, answered by a fallback or recorded by a breaker
   */
  CallExecution begin(Arguments arguments);

  /**
   * Runs the whole call as an asynchronous call, every pattern included (stale answers, retry,
   * hedge, fallback), for a form whose delegate returns one value later: each attempt's return
   * value and the fallback's answer become stages through {@code adapter}.
   *
   * @param adapter turns what the delegate and the fallback return into stages
   * @param target the delegate
   * @param a the first reference argument (see {@link Arguments} for the slots), or null
   * @param b the second, or null
   * @param c the third, or null
   * @param d the fourth, or null
   * @param x the first primitive argument widened to a {@code long}, or 0
   * @param y the second, or 0
   * @param <T> the value type
   * @return the call's future; never null, nothing thrown (a refusal completes it exceptionally)
   */
  <T> CompletableFuture<T> callAsync(StageAdapter adapter, Object target, Object a, Object b, Object c, Object d, long x, long y);
}
