package dev.brace.runtime.metrics;

import dev.brace.runtime.CircuitState;

/**
 * What one instance reports to a {@link MetricsListener}, one method per thing that happened; each
 * kind of instance calls the methods that concern it (named below). Durations are nanoseconds on
 * the registry's clock.
 */
public interface InstanceMetrics {

  /** A breaker, limiter or bulkhead refused an attempt. */
  void rejected();

  /** @param nanos how long a caller waited for a limiter's token or a bulkhead's permit it then got */
  void waited(long nanos);

  /**
   * A breaker changed state.
   *
   * @param from the state it left
   * @param to the state it is in now
   */
  void transitioned(CircuitState from, CircuitState to);

  /**
   * A retry saw a failed attempt (or a result it retries).
   *
   * @param retried whether another attempt follows
   */
  void attemptFailed(boolean retried);

  /** A hedge was sent: it passed the breaker, limiter and bulkhead. */
  void hedgeStarted();

  /** A hedge was not sent: the retry budget was empty. */
  void hedgeBudgetExhausted();

  /**
   * An attempt decided a group in which hedges had started.
   *
   * @param first whether it was the original attempt
   */
  void hedgeWon(boolean first);

  /** A timeout cut an attempt off at its deadline. */
  void timedOut();

  /** A call ran out of the deadline it runs under; the instance is that call's deadline, named for the call. */
  void deadlineExceeded();

  /**
   * Fault injection delayed an attempt or failed it on purpose; the instance is the settings' name.
   *
   * @param named what that name names for the call: {@code call}, or an instance's kind key
   * @param fault whether it failed the attempt (else it delayed it)
   */
  void injected(String named, boolean fault);

  /** {@code @StaleIfError} answered a failed call with a remembered result. */
  void staleServed();

  /** {@code @StaleIfError} found no result young enough for a failure it would answer. */
  void staleMissing();
}
