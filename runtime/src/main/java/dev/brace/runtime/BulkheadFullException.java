package dev.brace.runtime;

/** Refused by a bulkhead: every permit was taken and none came free within its {@code maxWait}. */
public final class BulkheadFullException extends Refusal {
  private static final long serialVersionUID = 1L;

  /**
   * @param instance the bulkhead's name
   * @param maxConcurrent its capacity, for the message
   * @param cause an interrupt that stopped the wait, or {@code null}
   */
  public BulkheadFullException(String instance, int maxConcurrent, Throwable cause) {
    super(
        instance,
        cause != null
            ? "bulkhead '" + instance + "' was interrupted while waiting for a permit"
            : "bulkhead '" + instance + "' is full (" + maxConcurrent + " calls in flight)",
        cause);
  }
}
