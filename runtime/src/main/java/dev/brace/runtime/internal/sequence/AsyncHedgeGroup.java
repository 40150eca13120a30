package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.support.CallKeys;
import java.util.concurrent.CompletableFuture;

/**
 * A hedged group of an asynchronous call: each attempt is a further call of the delegate, an
 * {@link AsyncAttempt} through the call's pipeline with a ticket of its own. A losing attempt is
 * stopped, which cancels the delegate's future and gives back what the attempt holds. Nothing
 * blocks a thread.
 *
 * @param <T> the future's value type
 */
final class AsyncHedgeGroup<T> extends HedgeGroup<T> {
  private final CallKeys keys;
  private final CallFrame frame;

  private AsyncHedgeGroup(CallSequence sequence, CallKeys keys, CallFrame frame, CallContext context) {
    super(sequence, context);
    this.keys = keys;
    this.frame = frame;
  }

  /**
   * Starts one hedged group.
   *
   * @param frame the call's delegate and arguments, its own (detached): every attempt reads them
   * @param context the caller's context, which the call's driver captured when it started: every
   *     attempt runs in it, wherever it begins
   * @return completes with the deciding outcome, or the last failure with the others attached;
   *     cancelling it stops every attempt
   */
  static <T> CompletableFuture<T> start(CallSequence sequence, CallKeys keys, CallFrame frame, CallContext context) {
    AsyncHedgeGroup<T> group = new AsyncHedgeGroup<>(sequence, keys, frame, context);
    // Completed by the group itself only once it is over, so this stops attempts only when the
    // caller cancelled the future.
    group.decided.whenComplete((value, failure) -> group.cancel());
    group.start();
    return group.decided;
  }

  @Override
  Attempt create(int number) {
    return new Call(number);
  }

  /** One attempt of the group, and what it tells the group. */
  private final class Call implements Attempt, AsyncAttempt.Listener<T> {
    private final int number;
    /** Guarded by this object's monitor. */
    private boolean stopped;
    private AsyncAttempt<T> running;

    Call(int number) {
      this.number = number;
    }

    @Override
    public void begin() {
      AsyncAttempt<T> attempt =
          new AsyncAttempt<>(frame, frame.ticket().sibling(keys), AsyncContext.of(context), this);
      boolean stopNow;
      synchronized (this) {
        running = attempt;
        stopNow = stopped;
      }
      if (stopNow) {
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
      AsyncAttempt<T> attempt;
      synchronized (this) {
        stopped = true;
        attempt = running;
      }
      if (attempt != null) {
        attempt.stop();
      }
    }
  }
}
