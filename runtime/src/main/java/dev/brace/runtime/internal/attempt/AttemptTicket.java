package dev.brace.runtime.internal.attempt;

import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;

/**
 * What one attempt holds on its way through the {@link AttemptPipeline}, part by part (data only:
 * the pipeline reads and writes the parts): the
 * breaker that admitted it and that breaker's ticket, the limiter it took a token from (and, while
 * it waits, the reservation of that token), whether it holds a bulkhead permit, and the instant it
 * was admitted at. Whoever ends the attempt hands the ticket back to the pipeline exactly once
 * ({@link AttemptPipeline#succeeded}, {@link AttemptPipeline#failed}, {@link
 * AttemptPipeline#abandon}), which releases each part it holds and leaves the ticket ready for the
 * next attempt.
 *
 * <p>Reused, not allocated per attempt: a synchronous call takes one from its thread's frame and
 * uses it for every attempt; an asynchronous call that has to wait takes it over. Not thread-safe:
 * one owner at a time, and a driver that hands it to another thread publishes it through its own
 * synchronization.
 */
public final class AttemptTicket {
  /** An instant nobody read: no pattern of the attempt needed the clock. */
  public static final long UNTIMED = Long.MIN_VALUE;
  /** No deadline: neither the caller's nor one of the call's own bounds. */
  static final long NO_DEADLINE = Long.MIN_VALUE;

  /** How far admission has come; a wait resumes where it stopped. */
  enum Stage {
    BREAKER,
    LIMITER,
    TOKEN,
    BULKHEAD,
    PERMIT,
    ADMITTED
  }

  Stage stage = Stage.BREAKER;
  CallKeys keys = CallKeys.NONE;
  /** The breaker that admitted the attempt (a keyed family's member), and its ticket; null without one. */
  CircuitBreakerInstance breaker;
  Object breakerTicket;
  /** The limiter that admitted it (or is about to); null without one. */
  RateLimiterInstance limiter;
  /** While waiting for a token: its reservation, given back if the attempt stops, and when it was asked for. */
  boolean reserved;
  long reservation;
  long askedAt;
  boolean holdsPermit;
  /** How long the attempt has waited for a bulkhead permit so far, polling. */
  long permitWaitedNanos;
  /** What a {@link Admission#WAIT} asks for: nanoseconds before asking again. */
  long waitNanos;
  /** Whether admission waited (for a token or a permit): the admission instant is then read again. */
  boolean waited;
  /** When the attempt was admitted, on the registry's clock; {@link #UNTIMED} when nothing needed it. */
  long admittedAt = UNTIMED;
  /** The calls the bulkhead had in flight with this one, for an adaptive limit's sample. */
  int inFlight;
  /** What a {@link Admission#REFUSED} carries. */
  RuntimeException refusal;
  /** The deadline the attempt inherits, as an instant of the registry's clock, and its length; read at admission. */
  long inheritedEnd = NO_DEADLINE;
  long inheritedBudget;
  /** When the attempt must end (its timeout or the inherited deadline, the earlier), and whether the deadline is the earlier. */
  long end = NO_DEADLINE;
  boolean endInherited;
  /** When the call's retry's {@code maxDuration} ends, and its length: the same for every attempt of the call. */
  long callEnd = NO_DEADLINE;
  long callBudget;

  /** A ticket for a new call's attempts. */
  public AttemptTicket() {}

  /**
   * Prepares the ticket for an attempt of a call with these keys.
   *
   * @param keys the call's keys ({@link CallKeys#NONE} when nothing is keyed)
   * @return this
   */
  public AttemptTicket start(CallKeys keys) {
    this.keys = keys;
    this.stage = Stage.BREAKER;
    return this;
  }

  /**
   * Notes when a call that begins now must end by its retry's {@code maxDuration}: the calls its
   * attempts make inherit it, as the deadline of the whole call.
   *
   * @param started the call's start on the registry's clock
   * @param maxDurationNanos the retry's {@code maxDuration}; 0 or less for none
   */
  public void callBegan(long started, long maxDurationNanos) {
    callEnd = maxDurationNanos > 0 && started != UNTIMED ? started + maxDurationNanos : NO_DEADLINE;
    callBudget = maxDurationNanos;
  }

  /** @return after {@link Admission#WAIT}: nanoseconds to wait before asking the pipeline again */
  public long waitNanos() {
    return waitNanos;
  }

  /** @return after {@link Admission#REFUSED}: the refusal, which holds nothing */
  public RuntimeException refusal() {
    return refusal;
  }

  /** @return when the attempt was admitted on the registry's clock, or {@link #UNTIMED} */
  public long admittedAt() {
    return admittedAt;
  }

  /** @return whether the attempt passed admission and holds what it took, until its outcome */
  public boolean admitted() {
    return stage == Stage.ADMITTED;
  }

  /**
   * A ticket for an attempt of the same call on another thread (a hedge): it passes on the call's
   * own bound as this one does.
   *
   * @param keys the call's keys
   * @return a new ticket, started
   */
  public AttemptTicket sibling(CallKeys keys) {
    AttemptTicket sibling = new AttemptTicket().start(keys);
    sibling.callEnd = callEnd;
    sibling.callBudget = callBudget;
    return sibling;
  }
}
