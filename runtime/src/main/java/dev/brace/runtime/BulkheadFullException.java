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

  /**
   * A call refused below the whole limit: its criticality may fill only a share of it.
   *
   * @param instance the bulkhead's name
   * @param limit its limit now
   * @param criticality the refused call's criticality ({@code DEFAULT}, {@code SHEDDABLE})
   * @param threshold the calls in flight at which that criticality is refused
   * @param cause an interrupt that stopped the wait, or {@code null}
   */
  public BulkheadFullException(String instance, int limit, String criticality, int threshold, Throwable cause) {
    super(
        instance,
        cause != null
            ? "bulkhead '" + instance + "' was interrupted while waiting for a permit"
            : "bulkhead '" + instance + "' sheds " + criticality + " calls: " + threshold
                + " or more in flight (its share of the limit " + limit + ")",
        cause);
  }
}
