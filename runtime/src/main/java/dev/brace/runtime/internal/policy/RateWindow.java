package dev.brace.runtime.internal.policy;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.config.CircuitBreakerConfig;

/**
 * The rolling window of a rate-mode circuit breaker: how many outcomes it holds and how many of
 * them were failures. Constant memory, lock-free, O(1) per recorded outcome.
 *
 * <p>{@link #record} returns both counts packed in one {@code long} ({@link #calls(long)}, {@link
 * #failures(long)}), read in one atomic step, so the rate is never judged on a calls count and a
 * failures count taken at different moments.
 *
 * <p>A breaker that judges latency keeps a second window of the same shape whose "failures" are
 * the slow outcomes, so this one stays a pair of counters that can be striped underneath.
 */
abstract class RateWindow {

  /** One outcome, in the packed form; a failure adds {@link #FAILURE} on top. */
  static final long CALL = 1L << 32;

  /** One failure, in the packed form. */
  static final long FAILURE = 1L;

  /**
   * Records one outcome.
   *
   * @param failure whether the outcome is a counted failure
   * @return the window's calls and failures right after this outcome, packed
   */
  abstract long record(boolean failure);

  /**
   * @param config a rate-mode config
   * @param time where the window reads time (only a time window does)
   * @return an empty window of the kind the config asks for
   */
  static RateWindow of(CircuitBreakerConfig config, TimeSource time) {
    if (config.windowCalls() > 0) {
      return new LastCallsWindow(config.windowCalls());
    }
    return new StripedTimeWindow(config.window(), config.windowBuckets(), time);
  }

  /**
   * @param packed counts as returned by {@link #record}
   * @return the outcomes in the window
   */
  static long calls(long packed) {
    return (packed - failures(packed)) >> 32;
  }

  /**
   * The low half is read as signed: while one thread retires a bucket another may still be adding
   * to it, so the failures may be transiently one below their settled value and must not borrow
   * from the calls.
   *
   * @param packed counts as returned by {@link #record}
   * @return the failures in the window
   */
  static long failures(long packed) {
    return (int) packed;
  }

  /** @return the packed change one outcome makes */
  static long delta(boolean failure) {
    return failure ? CALL + FAILURE : CALL;
  }
}
