package dev.brace.runtime.support;

import dev.brace.runtime.internal.sequence.AsyncDriver;
import dev.brace.runtime.internal.sequence.CallPolicies;
import dev.brace.runtime.internal.sequence.ResilientCalls;
import dev.brace.runtime.internal.sequence.SyncDriver;
import dev.brace.runtime.spi.driver.ResolvedCall;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One call's policies, resolved by a registry ({@code Registry.resolve}), and what a generated
 * method is made of. A synchronous method calls its delegate itself when the runtime admits the
 * attempt at once, so that each wrapper's call of its delegate is a call site of its own and a
 * primitive result is never boxed:
 *
 * <pre>{@code
 * public int stock(String sku) throws IOException {
 *   long at = this.stock.instant();
 *   Object held = this.stock.admitNow(at);
 *   if (this.stock.admitted(held)) {
 *     try {
 *       int result = this.delegate.stock(sku);
 *       this.stock.succeeded(held, at);
 *       return result;
 *     } catch (Throwable failure) {
 *       held = this.stock.failed(held, at, failure);
 *     }
 *   }
 *   return this.stock.staged(held, at, this.delegate, sku, null, null, null, 0L, 0L);
 * }
 * }</pre>
 *
 * <p>The runtime decides everything: which calls may be admitted at once (none with a timeout, a
 * hedge, keys, remembered results, a result predicate, fault injection, a caller's deadline on the
 * thread…), whether this one is, and everything after a failure. The generated method only keeps
 * what {@link #instant()} and {@link #admitNow} answered in two locals and hands them back: the
 * attempt is then finished by the policies that admitted it, whatever a reconfiguration did in
 * between, and nothing is allocated on the way to a success.
 *
 * <p>The arguments go in fixed slots ({@link Arguments}: four references, two primitives widened
 * to {@code long}) and the method's {@link CallDefinition} holds the lambdas, capturing nothing,
 * that call the delegate and the fallback with them, for every attempt the runtime makes itself
 * ({@link #call}, {@link #staged}, {@link #callAsync}): so a call allocates
 * nothing to hand its arguments over, and every decision is made in the runtime from the call's
 * configuration, read at call time.
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
      public ResilientCall make(CallPolicies callPolicies) {
        return new ResilientCall(callPolicies);
      }

      @Override
      public void switchTo(ResilientCall call, CallPolicies next) {
        call.current = next;
      }

      @Override
      public CallPolicies current(ResilientCall call) {
        return call.current;
      }
    });
  }

  /** This call's policies as they are now, replaced whole by a reconfiguration. */
  private volatile CallPolicies current;

  private ResilientCall(CallPolicies callPolicies) {
    this.current = Objects.requireNonNull(callPolicies, "callPolicies");
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
   * The first step of a synchronous call whose generated method calls its delegate itself: the
   * instant to pass to {@link #admitNow}, read only when the call's policies need one.
   *
   * @return the instant, or a value that stands for none; only to be passed on
   */
  public long instant() {
    return SyncDriver.instant(current);
  }

  /**
   * Admits the call's first attempt now, if every pattern lets it without waiting. Never waits,
   * never throws a refusal: what is not admitted now goes to {@link #staged}.
   *
   * @param instant what {@link #instant()} answered
   * @return what the attempt holds, to pass to {@link #admitted} and then to {@link #succeeded}
   *     and {@link #failed}, or to {@link #staged}
   */
  public Object admitNow(long instant) {
    return SyncDriver.admitNow(current, instant);
  }

  /**
   * @param held what {@link #admitNow} answered
   * @return whether the attempt is admitted: the generated method calls its delegate, then {@link
   *     #succeeded} or {@link #failed}; otherwise it calls {@link #staged}
   */
  public boolean admitted(Object held) {
    return SyncDriver.admitted(held);
  }

  /**
   * Records that the admitted attempt returned, and that the call ended with it.
   *
   * @param held what {@link #admitNow} answered, {@linkplain #admitted admitted}
   * @param instant what {@link #instant()} answered
   * @throws RuntimeException when recording the success failed (a metrics listener threw): the
   *     generated method hands it to {@link #failed} as it would the delegate's own failure
   */
  public void succeeded(Object held, long instant) {
    SyncDriver.succeeded(held, instant);
  }

  /**
   * Records that the admitted attempt failed, on the policies that admitted it: the generated
   * method then hands what this answers to {@link #staged}, which goes on as {@link #call} goes on
   * after a failed attempt (retried, answered by the fallback, or thrown as itself).
   *
   * @param held what {@link #admitNow} answered, {@linkplain #admitted admitted}
   * @param instant what {@link #instant()} answered
   * @param failure what the delegate (or {@link #succeeded}) threw
   * @return what the attempt left, to pass to {@link #staged} in place of {@code held}
   */
  public Object failed(Object held, long instant, Throwable failure) {
    return SyncDriver.failed(held, instant, failure);
  }

  /**
   * Runs a synchronous call whose first attempt {@link #admitNow} did not admit, or {@linkplain
   * #failed failed}, as {@link #call} runs it, taking up what the attempt holds (the bulkhead it
   * waits for, a token taken, the failure recorded) so that nothing is taken or recorded twice.
   * What ends the call is thrown as itself, though this method declares none.
   *
   * @param held what {@link #admitNow} answered, not {@linkplain #admitted admitted}; or what
   *     {@link #failed} answered
   * @param instant what {@link #instant()} answered
   * @param target the delegate
   * @param a the first reference argument (see {@link #call}), or null
   * @param b the second, or null
   * @param c the third, or null
   * @param d the fourth, or null
   * @param x the first primitive argument widened to a {@code long}, or 0
   * @param y the second, or 0
   * @param <T> the result type, as the generated method returns it
   * @return the result, or the fallback's
   */
  @SuppressWarnings("unchecked")
  public <T> T staged(Object held, long instant, Object target, Object a, Object b, Object c, Object d, long x, long y) {
    return (T) SyncDriver.staged(current, held, instant, target, a, b, c, d, x, y);
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
