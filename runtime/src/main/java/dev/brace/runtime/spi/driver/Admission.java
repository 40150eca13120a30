package dev.brace.runtime.spi.driver;

import java.util.Objects;

/**
 * What {@link CallExecution#admit()} answers for an attempt: it may start now, it must wait and be
 * admitted again, or it is refused. The runtime asks breaker, limiter and bulkhead in call order
 * and never blocks the driver's thread: a wait is the driver's to spend as its form does (a sleep
 * on the caller's thread, a task on a scheduler, a suspension).
 */
public sealed interface Admission permits Admission.Admitted, Admission.Wait, Admission.Refused {

  /** The one {@link Admitted}: an admission that may start at once carries nothing. */
  Admission ADMITTED = new Admitted();

  /**
   * The attempt holds what it needs: launch it ({@link CallExecution#launch}), then report its
   * outcome. Use {@link #ADMITTED}.
   */
  record Admitted() implements Admission {}

  /**
   * Admission has started and must be asked again after {@code nanos} (a reserved token on its
   * way, a permit that may free within the bulkhead's {@code maxWait}); the execution keeps what
   * was taken so far. A driver that gives up meanwhile calls {@link CallExecution#abandon()}.
   *
   * @param nanos how long to wait before asking again, on the registry's clock
   */
  record Wait(long nanos) implements Admission {
    /**
     * @param nanos how long to wait before asking again
     * @throws IllegalArgumentException when {@code nanos} is negative
     */
    public Wait {
      if (nanos < 0) {
        throw new IllegalArgumentException("a wait of " + nanos + " ns");
      }
    }
  }

  /**
   * The attempt is refused and holds nothing. The refusal is the attempt's failure: ask the retry
   * about it ({@link CallExecution#retryDelay}) as about any other.
   *
   * @param refusal what refused it: a {@code CircuitOpenException}, {@code RateLimitedException},
   *     {@code BulkheadFullException}, or the caller's deadline passing
   */
  record Refused(Throwable refusal) implements Admission {
    /**
     * @param refusal what refused the attempt
     * @throws NullPointerException when {@code refusal} is null
     */
    public Refused {
      Objects.requireNonNull(refusal, "refusal");
    }
  }
}
