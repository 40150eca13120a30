package dev.brace.examples.incident;

/** The stages of the scripted incident, in the order they happen. */
public enum Phase {
  /** Answers in a few milliseconds. */
  HEALTHY("healthy"),
  /** Overloaded: sheds a share of requests with 503 and {@code Retry-After}. */
  BROWNOUT("brownout"),
  /** Answers, but slower than any client waits. */
  LATENCY_SPIKE("latency spike"),
  /** Every request fails with 500. */
  HARD_DOWN("hard down"),
  /** Healthy again. */
  RECOVERY("recovery");

  private final String label;

  Phase(String label) {
    this.label = label;
  }

  /** @return the name people read */
  public String label() {
    return label;
  }
}
