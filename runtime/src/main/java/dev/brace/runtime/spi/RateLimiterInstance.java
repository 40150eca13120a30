package dev.brace.runtime.spi;

import dev.brace.runtime.RateLimitedException;
import dev.brace.runtime.RateLimiterHandle;

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
   * Reserves a token for an asynchronous caller, who waits on its own scheduler before using it.
   *
   * @return nanoseconds to wait before the token may be used; 0 when it may be used now
   * @throws RateLimitedException when the token cannot arrive within {@code maxWait}; nothing is
   *     reserved then
   */
  long reserve();

  /** Gives back a token taken by {@link #reserve()} that will not be used. */
  void cancelReservation();
}
