package dev.brace.runtime;

/** A retry budget of a {@link Registry}, for introspection, metrics and tests. */
public interface RetryBudgetHandle {

  /** @return the budget's name */
  String name();

  /** @return the retries its window allows now: its balance */
  long available();
}
