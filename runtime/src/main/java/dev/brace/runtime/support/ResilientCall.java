package dev.brace.runtime.support;

import dev.brace.runtime.internal.sequence.AsyncDriver;
import dev.brace.runtime.internal.sequence.CallSequence;
import dev.brace.runtime.internal.sequence.ResilientCalls;
import dev.brace.runtime.internal.sequence.SyncDriver;
import dev.brace.runtime.spi.driver.ResolvedCall;
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
 * <p>A registry makes it ({@code Registry.resolve}) and, when it is reconfigured, gives it new
 * policies; a call that has started finishes on the policies it started with, since each call
 * reads them once. A driver outside the runtime reads them as a {@link ResolvedCall} ({@link
 * #resolved()}).
 *
 * <p>Thread-safe. Not meant for hand-written code: use {@code Stack} there.
 */
public final class ResilientCall {
  static {
    // The registry makes and switches calls; the API shows neither.
    ResilientCalls.lend(new ResilientCalls.Access() {
      @Override
      public ResilientCall make(CallSequence sequence) {
        return new ResilientCall(sequence);
      }

      @Override
      public void switchTo(ResilientCall call, CallSequence next) {
        call.current = next;
      }

      @Override
      public CallSequence current(ResilientCall call) {
        return call.current;
      }
    });
  }

  /** This call's policies as they are now, replaced whole by a reconfiguration. */
  private volatile CallSequence current;

  private ResilientCall(CallSequence sequence) {
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
   * @return the call's policies as they are now, for a driver of another form of call (the
   *     reactive one) to walk one call on, read once per call so that a reconfiguration in the
   *     middle of the call does not change them
   */
  public ResolvedCall resolved() {
    return current;
  }

  /** @return {@code Interface.method}, or a stack's name */
  public String callName() {
    return current.callName();
  }
}
