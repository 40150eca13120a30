package dev.brace.runtime;

import java.time.Duration;
import java.util.Objects;

/**
 * A call ran out of the deadline it runs under ({@link Deadline}): the deadline had passed when it
 * was called (the dependency was not called), a limiter or bulkhead wait could not end before it,
 * or an attempt was cut short by it rather than by the call's own timeout. The caller ran out of
 * time and the dependency did not fail, so no circuit breaker counts it, no adaptive limit learns
 * from it, and a retry stops.
 *
 * <p>A {@link TimeoutExceededException}, so exception filters ({@code on}, {@code ignore}) and
 * fallbacks that take a timeout take it too. {@link #instance()} is the call's name.
 */
public final class DeadlineExceededException extends TimeoutExceededException {
  private static final long serialVersionUID = 1L;

  private final transient Deadline deadline;
  private final transient Duration overrun;

  /**
   * @param call the call that ran out of time ({@code Interface.method}, a stack's name)
   * @param deadline the deadline that passed
   * @param overrun how far past it the call was when it gave up; zero or more
   * @throws NullPointerException when an argument is null
   */
  public DeadlineExceededException(String call, Deadline deadline, Duration overrun) {
    super("'" + Objects.requireNonNull(call, "call") + "' ran out of its deadline of "
            + Durations.describe(Objects.requireNonNull(deadline, "deadline").budget()) + ", passed "
            + Durations.describe(Duration.ofMillis(Objects.requireNonNull(overrun, "overrun").toMillis())) + " ago",
        call, deadline.budget());
    this.deadline = deadline;
    this.overrun = overrun;
  }

  /** @return the deadline that passed */
  public Deadline deadline() {
    return deadline;
  }

  /** @return how far past the deadline the call was when it gave up */
  public Duration overrun() {
    return overrun;
  }
}
