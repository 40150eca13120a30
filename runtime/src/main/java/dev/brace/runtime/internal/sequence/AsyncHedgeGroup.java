package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.support.CallKeys;

/**
 * A hedged group of an asynchronous call: each attempt is a further call of the delegate, an
 * {@link AsyncAttempt} through the call's pipeline with a state of its own (the first attempt of
 * the call's first group takes the call's). A losing attempt is stopped, which cancels the
 * delegate's future and gives back what the attempt holds. Nothing blocks a thread.
 *
 * @param <T> the future's value type
 */
final class AsyncHedgeGroup<T> extends HedgeGroup<T> implements Runnable {
  /** What is told when the group is decided: the call's driver. */
  interface Decision<T> {
    /**
     * Runs on whichever thread decided the group, in the caller's context (every attempt's outcome
     * and the hedge's timer run in it), at most once, and never once the group was {@linkplain
     * #cancel cancelled}.
     *
     * @param value the deciding result, when {@code failure} is null
     * @param failure the deciding failure, or the last one with the others attached; or null
     */
    void groupDecided(T value, Throwable failure);
  }

  private final CallKeys keys;
  private final CallFrame frame;
  /** The call's own context: an attempt begun on the caller's thread while the call starts runs as it is. */
  private final AsyncContext callContext;
  /**
   * Whether attempt 1 goes through with the frame's own attempt's state rather than one of its own. Only the
   * call's first group may: nothing before it has used the attempt's state for an attempt, whereas a later
   * group's attempt 1 could find it still held by an attempt of an earlier group that is being
   * stopped. The frame's attempt's state only carries the call's bound otherwise, which attempts read.
   */
  private final boolean firstTakesCallTicket;
  private final Decision<T> decision;

  private AsyncHedgeGroup(CallPolicies policies, CallKeys keys, CallFrame frame, AsyncContext context,
      boolean firstTakesCallTicket, Decision<T> decision) {
    super(policies, context.captured, false);
    this.keys = keys;
    this.frame = frame;
    this.callContext = context;
    this.firstTakesCallTicket = firstTakesCallTicket;
    this.decision = decision;
  }

  /**
   * One hedged group, not started yet ({@link #start}), so that its caller can make it stoppable
   * before any attempt can decide it.
   *
   * @param frame the call's delegate and arguments, its own (detached): every attempt reads them
   * @param context the call's context, as its driver keeps it: every attempt runs in the caller's
   *     context, wherever it begins
   * @param firstOfTheCall whether this is the call's first group: its attempt 1 then goes through
   *     with the frame's own attempt's state
   * @param decision told the deciding outcome, or the last failure with the others attached
   * @return the group, which {@link #cancel} (or running it) stops
   */
  static <T> AsyncHedgeGroup<T> of(CallPolicies policies, CallKeys keys, CallFrame frame, AsyncContext context,
      boolean firstOfTheCall, Decision<T> decision) {
    return new AsyncHedgeGroup<>(policies, keys, frame, context, firstOfTheCall, decision);
  }

  @Override
  void decided(T value, Throwable failure) {
    decision.groupDecided(value, failure);
  }

  /** Stops the group, as {@link #cancel}: the driver runs it when its caller gives up. */
  @Override
  public void run() {
    cancel();
  }

  @Override
  Attempt create(int number) {
    return new Call(number);
  }

  /** One attempt of the group, and what it tells the group. */
  private final class Call implements Attempt, AsyncAttempt.Listener<T> {
    private final int number;
    /**
     * Each side writes its own field first and reads the other's after, so a stop that races the
     * beginning is seen by at least one of them; the attempt's own stop is once-only.
     */
    private volatile boolean stopped;
    private volatile AsyncAttempt<T> running;

    Call(int number) {
      this.number = number;
    }

    @Override
    public void begin() {
      AttemptState state = number == 1 && firstTakesCallTicket
          ? frame.attemptState().start(keys)
          : frame.attemptState().sibling(keys);
      AsyncAttempt<T> attempt = new AsyncAttempt<>(frame, state, callContext, this);
      running = attempt;
      if (stopped) {
        attempt.stop();
      } else {
        attempt.begin();
      }
    }

    /** Admitted by the breaker, limiter and bulkhead: it may reach the delegate unless the group is over. */
    @Override
    public boolean mayCall() {
      return admitted(number);
    }

    @Override
    public void refused(Throwable refusal) {
      try {
        notAdmitted(number, refusal);
      } finally {
        ended(number);
      }
    }

    @Override
    public void succeeded(T value) {
      try {
        AsyncHedgeGroup.this.succeeded(number, value);
      } finally {
        ended(number);
      }
    }

    @Override
    public void failed(Throwable failure) {
      try {
        AsyncHedgeGroup.this.failed(number, failure);
      } finally {
        ended(number);
      }
    }

    @Override
    public void stopped() {
      ended(number);
    }

    @Override
    public void stop() {
      stopped = true;
      AsyncAttempt<T> attempt = running;
      if (attempt != null) {
        attempt.stop();
      }
    }
  }
}
