package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.support.AsyncAttempt;
import dev.brace.runtime.support.CallKeys;
import dev.brace.runtime.internal.context.CallContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A hedged group of an asynchronous call: each attempt is a further call of the delegate, walked
 * through breaker, limiter, bulkhead and timeout by an {@link AsyncDriver} of its own over the
 * call's per-attempt steps ({@link CallSequence#attemptsOnly}). A losing attempt is stopped by
 * cancelling that driver's future, which cancels the delegate's future and releases what the
 * attempt holds. Nothing blocks a thread.
 *
 * @param <T> the future's value type
 */
final class AsyncHedgeGroup<T> extends HedgeGroup<T> {
  private final CallKeys keys;
  private final AsyncAttempt<T> delegate;

  private AsyncHedgeGroup(CallSequence sequence, CallKeys keys, AsyncAttempt<T> delegate, CallContext context) {
    super(sequence, context);
    this.keys = keys;
    this.delegate = delegate;
  }

  /**
   * Starts one hedged group.
   *
   * @param context the caller's context, which the call's driver captured when it started: every
   *     attempt runs in it, wherever it begins
   *
   * @return completes with the deciding outcome, or the last failure with the others attached;
   *     cancelling it stops every attempt
   */
  static <T> CompletableFuture<T> start(
      CallSequence sequence, CallKeys keys, AsyncAttempt<T> delegate, CallContext context) {
    AsyncHedgeGroup<T> group = new AsyncHedgeGroup<>(sequence, keys, delegate, context);
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

  /** One attempt: its own driver's future, once begun. */
  private final class Call implements Attempt, AsyncAttempt<T> {
    private final int number;
    /** Set when the delegate is called: an attempt that fails before that was not admitted. */
    private volatile boolean admitted;
    /** Guarded by this object's monitor. */
    private boolean stopped;
    private CompletableFuture<T> running;

    Call(int number) {
      this.number = number;
    }

    @Override
    public void begin() {
      CompletableFuture<T> attempt = AsyncDriver.hedgedAttempt(sequence.attemptsOnly(), keys, this, context);
      boolean stopNow;
      synchronized (this) {
        running = attempt;
        stopNow = stopped;
      }
      if (stopNow) {
        attempt.cancel(true);
      }
      attempt.whenComplete((value, failure) -> {
        try {
          if (failure == null) {
            succeeded(number, value);
          } else if (!attempt.isCancelled()) {
            if (admitted) {
              failed(number, failure);
            } else {
              notAdmitted(number, failure);
            }
          }
        } finally {
          ended(number);
        }
      });
    }

    /** The driver calls this once the breaker, limiter and bulkhead admitted the attempt. */
    @Override
    public CompletionStage<T> start() throws Throwable {
      admitted = true;
      if (!admitted(number)) {
        // The group is over and this attempt is about to be stopped: never reach the delegate.
        return new CompletableFuture<>();
      }
      return delegate.start();
    }

    @Override
    public void stop() {
      CompletableFuture<T> attempt;
      synchronized (this) {
        stopped = true;
        attempt = running;
      }
      if (attempt != null) {
        attempt.cancel(true);
      }
    }
  }
}
