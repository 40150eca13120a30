package dev.brace.runtime;

/** A bulkhead of a {@link Registry}, for introspection and tests. */
public interface BulkheadHandle {

  /** @return the bulkhead's name */
  String name();

  /** @return the calls holding a permit now */
  int inFlight();

  /** @return the permits free now */
  int available();

  /** @return the capacity */
  int maxConcurrent();
}
