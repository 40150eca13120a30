package dev.brace.runtime;

import java.time.Duration;

/**
 * An attempt did not finish within its {@code @Timeout}. Counted as a failure by a breaker. Its one
 * subclass, {@link DeadlineExceededException}, is a call that ran out of its caller's deadline,
 * which no breaker counts.
 */
public class TimeoutExceededException extends ResilienceException {
  private static final long serialVersionUID = 1L;

  /** The timeout's name. */
  private final String instance;
  private final transient Duration timeout;

  /**
   * @param instance the timeout's name (by default the call name)
   * @param timeout the deadline that passed
   */
  public TimeoutExceededException(String instance, Duration timeout) {
    super("'" + instance + "' timed out after " + Durations.describe(timeout));
    this.instance = instance;
    this.timeout = timeout;
  }

  /**
   * For {@link DeadlineExceededException}.
   *
   * @param message what happened
   * @param instance the call
   * @param timeout the deadline's length
   */
  TimeoutExceededException(String message, String instance, Duration timeout) {
    super(message);
    this.instance = instance;
    this.timeout = timeout;
  }

  /** @return the timeout's name */
  public String instance() {
    return instance;
  }

  /** @return the deadline that passed */
  public Duration timeout() {
    return timeout;
  }
}
