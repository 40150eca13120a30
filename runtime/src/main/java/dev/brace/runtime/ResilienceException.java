package dev.brace.runtime;

/** Base of every exception Brace itself throws. Unchecked. */
public class ResilienceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, naming the instance
   */
  public ResilienceException(String message) {
    super(message);
  }

  /**
   * @param message what happened, naming the instance
   * @param cause the underlying failure, or {@code null}
   */
  public ResilienceException(String message, Throwable cause) {
    super(message, cause);
  }
}
