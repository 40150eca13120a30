package dev.brace.runtime.internal.attempt;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.context.CurrentDeadline;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.spi.CircuitBreakerInstance;
import dev.brace.runtime.spi.RateLimiterInstance;

/**
 * What one attempt holds on its way through the {@link AttemptPipeline}, part by part (data only:
 * the pipeline reads and writes the parts): the
 * breaker that admitted it and that breaker's ticket, the limiter it took a token from (and, while
 * it waits, the reservation of that token), whether it holds a bulkhead permit, and the instant it
 * was admitted at. Whoever ends the attempt hands the attempt's state back to the pipeline exactly once
 * ({@link AttemptPipeline#succeeded}, {@link AttemptPipeline#failed}, {@link
 * AttemptPipeline#abandon}), which releases each part it holds and leaves the attempt's state ready for the
 * next attempt.
 *
 * <p>Reused, not allocated per attempt: a synchronous call takes one from its thread's frame and
 * uses it for every attempt; an asynchronous call that has to wait takes it over. An attempt made
 * {@linkplain AttemptPipeline#callWithoutWaiting without waiting} has none, and makes one only when
 * it cannot finish without it, to hand what it took to the frame's attempt's state. Not thread-safe:
 * one owner at a time, and a driver that hands it to another thread publishes it through its own
 * synchronization.
 */
public final class AttemptState implements CurrentDeadline.PassedOn {
  /** An instant nobody read: no pattern of the attempt needed the clock. */
  public static final long UNTIMED = Long.MIN_VALUE;
  /** No deadline: neither the caller's nor one of the call's own bounds. */
  static final long NO_DEADLINE = Long.MIN_VALUE;

  /**
   * How far admission has come; a wait resumes where it stopped. Plain ints rather than an enum:
   * admission switches on the stage for every attempt, and an enum switch costs a lookup table
   * read first.
   */
  static final int BREAKER = 0;
  static final int LIMITER = 1;
  static final int TOKEN = 2;
  static final int BULKHEAD = 3;
  static final int PERMIT = 4;
  static final int ADMITTED = 5;

  int stage = BREAKER;
  CallKeys keys = CallKeys.NONE;
  /**
   * Whether the attempt holds a breaker's ticket: {@link #breaker} (a keyed family's member)
   * admitted it with {@link #breakerTicket}. Both are kept after the attempt, to be compared
   * rather than written again by the next one: a reference store into this long-lived object
   * costs a garbage collector's barrier on every attempt.
   */
  boolean holdsBreaker;
  CircuitBreakerInstance breaker;
  Object breakerTicket;
  /** The limiter that admitted it (or is about to); kept, as the breaker is, for the next attempt. */
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
  /**
   * When the pipeline recorded this attempt's outcome, if it read the clock for it; {@link #UNTIMED}
   * until then. Kept when the pipeline clears the attempt's other parts after its outcome: a call
   * that ends with that outcome ends at that instant.
   */
  long outcomeAt = UNTIMED;
  // The bound of the attempt, which AttemptBounds alone decides, reads and writes.
  /** The deadline the attempt inherits, as an instant of the registry's clock, and its length; read at admission. */
  long inheritedEnd = NO_DEADLINE;
  long inheritedBudget;
  /** When the attempt must end (its timeout or the inherited deadline, the earlier), and whether the deadline is the earlier. */
  long end = NO_DEADLINE;
  boolean endInherited;
  /** When the call's retry's {@code maxDuration} ends, and its length: the same for every attempt of the call. */
  long callEnd = NO_DEADLINE;
  long callBudget;
  /**
   * What decides the bound the attempt passes on to the calls nested in it while it runs ({@link
   * CurrentDeadline#passOn}), from this state's ends, which do not change while it runs; and
   * whether the attempt passes on no deadline at all. Read, not copied: an attempt's state is made
   * for every asynchronous call, and three more fields would be 16 bytes more for each.
   */
  AttemptBounds passedOnBy;
  boolean passesNoDeadline;

  /**
   * Set only on a state {@link AttemptPipeline#callWithoutWaiting} made for an attempt it could
   * not finish: what the attempt failed with (what the delegate threw, not yet recorded; or, when
   * {@link #failureRecorded}, what recording its result threw), or the stage the delegate returned
   * that is still to complete.
   */
  Throwable failure;
  boolean failureRecorded;
  Object pending;

  /**
   * The deadline state of the one thread whose attempts use this state, when the state is confined
   * to it (a synchronous call's frame): admission then reads the caller's deadline without a
   * thread-local lookup. Null for a state that may move between threads: looked up each time.
   */
  private CurrentDeadline confinedTo;

  /** A state for a new call's attempts, on whatever thread they run. */
  public AttemptState() {}

  /**
   * @return a state holding what an attempt made without waiting took before it stopped at
   *     {@code stage}: the breaker's ticket (when {@code breaker} is not null), the limiter's token
   *     (when {@code limiter} is not null), the permit
   */
  static AttemptState leftAt(int stage, CircuitBreakerInstance breaker, Object breakerTicket,
      RateLimiterInstance limiter, boolean holdsPermit, long admittedAt) {
    AttemptState left = new AttemptState();
    left.stage = stage;
    if (breaker != null) {
      left.breaker = breaker;
      left.breakerTicket = breakerTicket;
      left.holdsBreaker = true;
    }
    left.limiter = limiter;
    left.holdsPermit = holdsPermit;
    left.admittedAt = admittedAt;
    return left;
  }

  /**
   * @param thread the deadline state of the thread every attempt with this attempt's state runs on, until
   *     {@link #release() released} from it
   * @return a state confined to that thread
   */
  public static AttemptState confinedTo(CurrentDeadline thread) {
    AttemptState attemptState = new AttemptState();
    attemptState.confinedTo = thread;
    return attemptState;
  }

  /** Frees the attempt's state from its thread: it goes on with an asynchronous call on others. */
  public void release() {
    confinedTo = null;
  }

  /** @return the current deadline state of the thread running the attempt now */
  CurrentDeadline currentDeadline() {
    CurrentDeadline thread = confinedTo;
    return thread != null ? thread : CurrentDeadline.ofThisThread();
  }

  /**
   * Prepares the attempt's state for an attempt of a call with these keys.
   *
   * @param keys the call's keys ({@link CallKeys#NONE} when nothing is keyed)
   * @return this
   */
  public AttemptState start(CallKeys keys) {
    if (this.keys != keys) {
      this.keys = keys;
    }
    this.stage = BREAKER;
    this.outcomeAt = UNTIMED;
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
    if (maxDurationNanos > 0 && started != UNTIMED) {
      callEnd = started + maxDurationNanos;
      callBudget = maxDurationNanos;
    } else if (callEnd != NO_DEADLINE) {
      callEnd = NO_DEADLINE;
    }
  }

  @Override
  public TimeSource passedOnClock() {
    return passesNoDeadline ? null : passedOnBy.clock();
  }

  @Override
  public long passedOnEnd() {
    return passedOnBy.passedOnEnd(this);
  }

  @Override
  public long passedOnBudget() {
    return passedOnBy.passedOnBudget(this);
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

  /**
   * @return when the attempt last {@linkplain #start started} had its outcome recorded, on the
   *     registry's clock; {@link #UNTIMED} when nothing timed it or it has none (yet)
   */
  public long outcomeAt() {
    return outcomeAt;
  }

  /**
   * @return on a state {@link AttemptPipeline#callWithoutWaiting} left: what the attempt failed
   *     with; null when it did not fail
   */
  public Throwable failure() {
    return failure;
  }

  /** @return whether the {@link #failure()} is recorded already and nothing is held: it only ends the attempt */
  public boolean failureRecorded() {
    return failureRecorded;
  }

  /**
   * @return on a state {@link AttemptPipeline#callWithoutWaiting} left: the stage its admitted
   *     asynchronous attempt's delegate returned, still to complete (or failed); else null
   */
  public Object pending() {
    return pending;
  }

  /** @return whether the attempt passed admission and holds what it took, until its outcome */
  public boolean admitted() {
    return stage == ADMITTED;
  }

  /**
   * A state for an attempt of the same call on another thread (a hedge): it passes on the call's
   * own bound as this one does.
   *
   * @param keys the call's keys
   * @return a new attempt's state, started
   */
  public AttemptState sibling(CallKeys keys) {
    AttemptState sibling = new AttemptState().start(keys);
    sibling.callEnd = callEnd;
    sibling.callBudget = callBudget;
    return sibling;
  }

  /**
   * Takes up an attempt {@link AttemptPipeline#callWithoutWaiting} could not finish, as if
   * admission had taken it that far: this state then holds what {@code left} holds, at the stage it
   * stopped. Nothing is recorded here: the driver goes on as it would have from that stage —
   * admission from a full bulkhead, the outcome of a {@linkplain #failure() failure} ({@link
   * AttemptPipeline#failed}) or of a {@linkplain #pending() stage still in flight}; a {@linkplain
   * #failureRecorded() recorded} failure only ends the attempt.
   *
   * @param left the state {@link AttemptPipeline#callWithoutWaiting} answered with
   */
  public void takeOver(AttemptState left) {
    if (left.failureRecorded) {
      this.outcomeAt = left.outcomeAt;
      return;
    }
    if (left.holdsBreaker) {
      this.breaker = left.breaker;
      this.breakerTicket = left.breakerTicket;
      this.holdsBreaker = true;
    }
    if (left.limiter != null) {
      this.limiter = left.limiter;
    }
    this.admittedAt = left.admittedAt;
    this.holdsPermit = left.holdsPermit;
    this.stage = left.stage;
  }
}
