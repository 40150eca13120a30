package dev.brace.runtime;

/** The state of a circuit breaker, as stored: reading it never moves it. */
public enum CircuitState {
  /** Calls flow; outcomes are counted. */
  CLOSED,
  /** Calls are refused until the reset timeout has passed. */
  OPEN,
  /** One probe at a time is let through to decide whether to close. */
  HALF_OPEN
}
