package dev.brace.runtime.metrics;

import dev.brace.runtime.config.Kind;

/**
 * What one call name reports to a {@link MetricsListener}: each attempt that reached the
 * dependency, and how each call ended and how long the caller waited for that (from the call's
 * start until its outcome was known, retries and waits included, a fallback's own work not).
 * Every call ends through exactly one of {@link #succeeded}, {@link #failed}, {@link #rejected},
 * {@link #timedOut} and {@link #fellBack} (a call that began before the binding reports none).
 * Durations are nanoseconds on the registry's clock.
 */
public interface CallMetrics {

  /** @param nanos how long the attempt took, from its admission to its outcome */
  void attemptSucceeded(long nanos);

  /** @param nanos how long the attempt took, from its admission to its outcome */
  void attemptFailed(long nanos);

  /** @param nanos how long the call took; the delegate's result ended it */
  void succeeded(long nanos);

  /**
   * A call whose one attempt succeeded and ended it: {@link #attemptSucceeded} and {@link
   * #succeeded}, reported as one so that the happy path makes one report, not two.
   *
   * @param attemptNanos how long the attempt took
   * @param callNanos how long the call took
   */
  default void attemptAndCallSucceeded(long attemptNanos, long callNanos) {
    attemptSucceeded(attemptNanos);
    succeeded(callNanos);
  }

  /**
   * @param nanos how long the call took; the delegate's failure ended it (a refusal or timeout
   *     from a call further down included)
   */
  void failed(long nanos);

  /**
   * @param by the refusing instance's kind: a breaker, limiter or bulkhead of this call
   * @param instance its name ({@code name[key]} for a keyed family's member)
   * @param nanos how long the call took
   */
  void rejected(Kind by, String instance, long nanos);

  /**
   * @param timeout the name of this call's timeout, which cut the last attempt off
   * @param nanos how long the call took
   */
  void timedOut(String timeout, long nanos);

  /**
   * @param fallback the name of the fallback that answers the failure
   * @param nanos how long the call took, until the fallback is called
   */
  void fellBack(String fallback, long nanos);
}
