package dev.brace.runtime;

/**
 * A call refused by a circuit breaker, rate limiter or bulkhead without reaching the dependency.
 * The refusal is not an outcome of the call: the refusing wrapper's own breaker never records it
 * and its retry does not retry it unless the exact class is named in {@code on}.
 */
public abstract class Refusal extends ResilienceException {
  private static final long serialVersionUID = 1L;

  /** The name of the refusing instance (with its key, if keyed). */
  private final String instance;

  /**
   * @param instance the name of the refusing instance
   * @param message what happened
   * @param cause the underlying cause (an interrupt while waiting), or {@code null}
   */
  protected Refusal(String instance, String message, Throwable cause) {
    super(message, cause);
    this.instance = instance;
  }

  /**
   * @return the name of the breaker, limiter or bulkhead that refused (with its key, if keyed)
   */
  public String instance() {
    return instance;
  }
}
