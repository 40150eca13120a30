package dev.brace.runtime.spi;

import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.RateLimiterHandle;
import dev.brace.runtime.config.RateLimitConfig;

/**
 * A rate limiter as the drivers call it. Implemented by the local token bucket and by shared
 * backends; every implementation is thread-safe.
 */
public interface RateLimiterInstance extends RateLimiterHandle {

  /**
   * Takes a token, waiting through the registry's time source up to {@code maxWait} for one
   * reserved for this caller.
   *
   * @throws RateLimitedException when no token can arrive within {@code maxWait} (at once, without
   *     waiting), or when the wait is interrupted (the interrupt flag set again)
   */
  void acquire();

  /**
   * Reserves a token for an asynchronous caller, who waits on its own scheduler before using it
   * and may give it back. Never waits.
   *
   * @return the reservation, for {@link #waitFor} and {@link #cancelReservation(long)}
   * @throws RateLimitedException when the token cannot arrive within {@code maxWait}; nothing is
   *     reserved then
   */
  long reserveToken();

  /**
   * As {@link #reserveToken()}, deciding at {@code now}, an instant the caller has just read from
   * the registry's {@link dev.brace.runtime.TimeSource}: the token may be used at once exactly when
   * the reservation is not after {@code now}, so an asynchronous caller whose token is there learns
   * it without a second clock read (a clock read is most of what a local limiter costs). The
   * default reserves on the implementation's own reading and answers {@code now} when the token
   * may be used at once.
   *
   * @param now the current instant, just read
   * @return the reservation, for {@link #waitFor} and {@link #cancelReservation(long)}
   * @throws RateLimitedException as {@link #reserveToken()}
   */
  default long reserveTokenAt(long now) {
    long reservation = reserveToken();
    return waitFor(reservation) > 0 ? reservation : now;
  }

  /**
   * Takes a token only if one is there at {@code now}, for an attempt that must not wait: otherwise
   * nothing is reserved, refused or reported, and the caller asks {@link #reserveTokenAt} instead.
   *
   * <p>The default answers false ("not now"): a limiter that must ask elsewhere for a token (a
   * shared backend's) is always asked through {@link #reserveTokenAt}.
   *
   * @param now the current instant, just read from the registry's {@link dev.brace.runtime.TimeSource}
   * @return whether a token was taken
   */
  default boolean takeNow(long now) {
    return false;
  }

  /**
   * @param reservation from {@link #reserveToken()}
   * @return nanoseconds from now until the reserved token may be used; 0 when it may be used now
   */
  long waitFor(long reservation);

  /**
   * Gives back a reserved token that will not be used. An implementation may drop it instead
   * (when giving it back could admit more than its bound); it never admits more.
   *
   * @param reservation from {@link #reserveToken()}
   */
  void cancelReservation(long reservation);

  /**
   * Reports that an asynchronous caller waited for its reserved token ({@code ratelimit.waited}).
   *
   * @param waitedNanos how long it waited
   */
  void waited(long waitedNanos);

  /**
   * @return whether callers are waiting for tokens reserved ahead of time; a keyed family keeps a
   *     member with waiters over an idle one when it must evict. An implementation that cannot
   *     tell (a shared backend) answers false.
   */
  default boolean hasWaiters() {
    return false;
  }

  /**
   * The dependency throttled a call of an adaptive limiter: the rate is multiplied by {@code
   * decrease} (not below {@code minPermits}) and, for a positive {@code blockNanos}, no token is
   * handed out before that much time has passed. A limiter that does not adapt is never told.
   *
   * @param blockNanos how long the dependency asked to be left alone (already capped); 0 for no hint
   */
  default void throttled(long blockNanos) {}

  /**
   * A call of an adaptive limiter succeeded: the rate grows by {@code increase}, up to {@code
   * permits}. A limiter that does not adapt is never told.
   */
  default void succeeded() {}

  /**
   * @return whether this limiter takes new settings while it runs ({@link #reconfigure}); a
   *     registry refuses a reconfiguration that would change the settings of one that does not.
   *     False unless an implementation says otherwise.
   */
  default boolean reconfigurable() {
    return false;
  }

  /**
   * Takes new settings without losing state: the tokens available stay available (capped at the
   * new {@code burst}), tokens promised to waiting callers stay promised, and the new rate applies
   * from now. Called only when {@link #reconfigurable()} is true.
   *
   * @param config the new settings, of this limiter's name
   * @throws UnsupportedOperationException when this limiter cannot take new settings
   */
  default void reconfigure(RateLimitConfig config) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot take new settings while it runs");
  }

  /**
   * @return nanoseconds to wait before a token reserved now may be used
   * @throws RateLimitedException when the token cannot arrive within {@code maxWait}
   */
  default long reserve() {
    return waitFor(reserveToken());
  }
}
