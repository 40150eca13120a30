package dev.brace.runtime;

/** A bulkhead of a {@link Registry}, for introspection and tests. */
public interface BulkheadHandle {

  /** @return the bulkhead's name */
  String name();

  /** @return the calls holding a permit now */
  int inFlight();

  /** @return the permits free now */
  int available();

  /** @return the capacity; for an adaptive bulkhead, the ceiling of its limit */
  int maxConcurrent();

  /**
   * @return the current limit: {@link #maxConcurrent()} for a fixed bulkhead, where an adaptive
   *     one's limit stands now
   */
  int limit();

  /**
   * Takes every permit free now and holds them until {@link #releaseForced()}, so that every call
   * waits up to its {@code maxWait} and is refused, as when the bulkhead is full of slow calls.
   * For tests and operators. Calls already in flight finish as they are; their permits, once
   * returned, are free for others, so force it when nothing is in flight.
   *
   * @return how many permits it took
   * @throws UnsupportedOperationException when this bulkhead cannot be forced
   */
  default int forceFull() {
    throw new UnsupportedOperationException("bulkhead '" + name() + "' cannot be forced full");
  }

  /**
   * Returns the permits {@link #forceFull()} took (none when it was not forced), waking callers that
   * wait for them.
   *
   * @throws UnsupportedOperationException when this bulkhead cannot be forced
   */
  default void releaseForced() {
    throw new UnsupportedOperationException("bulkhead '" + name() + "' cannot be forced full");
  }
}
