package dev.brace.runtime.internal.attempt;

import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;

/**
 * Where an {@linkplain AtOnceAttempt attempt made at once} stopped being one, with what it holds:
 * the driver gives it a frame and {@link AttemptPipeline#resume resumes} it there, as if the staged
 * pipeline had taken it that far. Made only off the happy path.
 */
public final class HandOver {
  /** The stage the attempt stopped at: {@link AttemptTicket#BULKHEAD} (full) or {@link AttemptTicket#ADMITTED}. */
  final int stage;
  final CircuitBreakerInstance breaker;
  final Object breakerTicket;
  final RateLimiterInstance limiter;
  final boolean holdsPermit;
  final long admittedAt;
  /** What the delegate threw (not yet recorded), or what recording its result threw (recorded); else null. */
  final Throwable failure;
  /** Whether the outcome is recorded and everything released: only the failure is left to the call. */
  final boolean recorded;
  final long outcomeAt;
  /** The stage an admitted asynchronous attempt's delegate returned, still to complete (or failed); else null. */
  final Object pending;

  private HandOver(int stage, CircuitBreakerInstance breaker, Object breakerTicket, RateLimiterInstance limiter,
      boolean holdsPermit, long admittedAt, Throwable failure, boolean recorded, long outcomeAt, Object pending) {
    this.stage = stage;
    this.breaker = breaker;
    this.breakerTicket = breakerTicket;
    this.limiter = limiter;
    this.holdsPermit = holdsPermit;
    this.admittedAt = admittedAt;
    this.failure = failure;
    this.recorded = recorded;
    this.outcomeAt = outcomeAt;
    this.pending = pending;
  }

  /** The bulkhead was full: breaker and token are taken, the permit is still to come. */
  static HandOver atBulkhead(CircuitBreakerInstance breaker, Object breakerTicket, RateLimiterInstance limiter, long admittedAt) {
    return new HandOver(AttemptTicket.BULKHEAD, breaker, breakerTicket, limiter, false, admittedAt, null, false,
        AttemptTicket.UNTIMED, null);
  }

  /** The delegate's stage has not completed with a value: everything is held while it is followed. */
  static HandOver inFlight(CircuitBreakerInstance breaker, Object breakerTicket, RateLimiterInstance limiter,
      boolean holdsPermit, long admittedAt, Object pending) {
    return new HandOver(AttemptTicket.ADMITTED, breaker, breakerTicket, limiter, holdsPermit, admittedAt, null, false,
        AttemptTicket.UNTIMED, pending);
  }

  /** The delegate threw: everything is held, the outcome is still to be recorded. */
  static HandOver failed(CircuitBreakerInstance breaker, Object breakerTicket, RateLimiterInstance limiter,
      boolean holdsPermit, long admittedAt, Throwable failure) {
    return new HandOver(AttemptTicket.ADMITTED, breaker, breakerTicket, limiter, holdsPermit, admittedAt, failure, false,
        AttemptTicket.UNTIMED, null);
  }

  /** Recording the delegate's result threw (the breaker's result predicate, a listener): the attempt failed with it. */
  static HandOver recordedFailure(Throwable failure, long outcomeAt) {
    return new HandOver(AttemptTicket.ADMITTED, null, null, null, false, AttemptTicket.UNTIMED, failure, true, outcomeAt, null);
  }

  /** @return what the attempt failed with (the delegate's throw, or what recording its result threw); null if it has not */
  public Throwable failure() {
    return failure;
  }

  /** @return whether the attempt's outcome is already recorded: only its failure is left to the call */
  public boolean recorded() {
    return recorded;
  }

  /** @return the stage an admitted asynchronous attempt's delegate returned, to follow; null for any other hand-over */
  public Object pending() {
    return pending;
  }
}
