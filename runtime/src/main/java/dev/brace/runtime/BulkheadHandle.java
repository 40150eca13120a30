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
}
