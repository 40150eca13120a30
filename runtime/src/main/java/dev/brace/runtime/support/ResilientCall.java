package dev.brace.runtime.support;

import dev.brace.runtime.internal.sequence.AsyncDriver;
import dev.brace.runtime.internal.sequence.CallSequence;
import dev.brace.runtime.internal.sequence.SyncDriver;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One call's policies, resolved by a registry ({@code Registry.resolve}), and the one statement a
 * generated method is made of:
 *
 * <pre>{@code
 * public List<String> recommendations(String userId) throws IOException {
 *   return this.recommendations.call(this.delegate, userId, null, null, null, 0L, 0L);
 * }
 * }</pre>
 *
 * <p>The arguments go in fixed slots ({@link Arguments}: four references, two primitives widened
 * to {@code long}) and the method's {@link CallDefinition} holds the lambdas, capturing nothing,
 * that call the delegate and the fallback with them: so a call allocates nothing to hand its
 * arguments over, and every decision is made in the runtime from the call's configuration, read at
 * call time.
 *
 * <p>A registry's reconfiguration gives a call new policies ({@link #switchTo}); a call that has
 * started finishes on the policies it started with, since each call reads them once.
 *
 * <p>Thread-safe. Not meant for hand-written code: use {@code Stack} there.
 */
public final class ResilientCall {
  /** This call's policies as they are now, replaced whole by a reconfiguration. */
  private volatile CallSequence current;

  /**
   * @param sequence the resolved policies; the registry makes them
   * @throws NullPointerException when {@code sequence} is null
   */
  public ResilientCall(CallSequence sequence) {
    this.current = Objects.requireNonNull(sequence, "sequence");
  }

  /**
   * Runs a synchronous call. What ends the call is thrown as itself (the delegate's checked
   * exceptions included, unwrapped), though this method declares none: the generated method
   * declares what its delegate may throw.
   *
   * @param target the delegate
   * @param a the first reference argument (see {@link Arguments} for the slots), or null
   * @param b the second, or null
   * @param c the third, or null
   * @param d the fourth, or null
   * @param x the first primitive argument widened to a {@code long}, or 0
   * @param y the second, or 0
   * @param <T> the result type, as the generated method returns it
   * @return the result, or the fallback's
   */
  @SuppressWarnings("unchecked")
  public <T> T call(Object target, Object a, Object b, Object c, Object d, long x, long y) {
    return (T) SyncDriver.call(current, target, a, b, c, d, x, y);
  }

  /**
   * Runs an asynchronous call without blocking a thread. Nothing is thrown: every failure,
   * refusals included, completes the returned future exceptionally.
   *
   * @param target the delegate
   * @param a the first reference argument (see {@link #call}), or null
   * @param b the second, or null
   * @param c the third, or null
   * @param d the fourth, or null
   * @param x the first primitive argument widened to a {@code long}, or 0
   * @param y the second, or 0
   * @param <T> the future's value type
   * @return the call's future
   */
  public <T> CompletableFuture<T> callAsync(Object target, Object a, Object b, Object c, Object d, long x, long y) {
    return AsyncDriver.call(current, target, a, b, c, d, x, y);
  }

  /**
   * @return the call's policies as they are now: a driver outside this package (a {@code Stack}, the
   *     reactive one) walks one call on what this returned, so a reconfiguration in the middle of
   *     the call does not change them
   */
  public CallSequence sequence() {
    return current;
  }

  /** @return {@code Interface.method}, or a stack's name */
  public String callName() {
    return current.callName();
  }

  /**
   * Gives calls that start from now on new policies; calls already running keep theirs. The
   * registry calls it when it is reconfigured.
   *
   * @param next the policies resolved under the new configuration
   * @throws NullPointerException when {@code next} is null
   */
  public void switchTo(CallSequence next) {
    current = Objects.requireNonNull(next, "next");
  }
}
