package dev.brace.runtime.internal.chaos;

import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.spi.driver.DelegateCall;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * An asynchronous attempt held back by an injected latency: a task on the registry's scheduler
 * that, when the latency has passed, fails with the injected fault or calls the delegate (in the
 * caller's context) and completes with its future. Cancelling the future — the attempt's deadline
 * passed, the caller gave up, another hedge won — cancels the task, or the delegate's future once
 * it was called.
 */
final class DelayedCall {
  private final CompletableFuture<Object> result = new CompletableFuture<>();
  private final DelegateCall attempt;
  private final FaultInjection injection;
  private final CallContext context;
  private volatile ScheduledFuture<?> task;
  private volatile CompletionStage<?> called;

  private DelayedCall(DelegateCall attempt, FaultInjection injection) {
    this.attempt = attempt;
    this.injection = injection;
    this.context = CallContext.capture();
  }

  /**
   * @param attempt the delegate call, detached from the caller; null when the attempt then fails
   * @return the future that stands for the attempt
   */
  static CompletableFuture<Object> start(ScheduledExecutorService scheduler, long latencyNanos, DelegateCall attempt,
      FaultInjection injection) {
    DelayedCall call = new DelayedCall(attempt, injection);
    call.result.whenComplete((value, failure) -> {
      if (call.result.isCancelled()) {
        call.cancelled();
      }
    });
    call.task = scheduler.schedule(call::latencyPassed, latencyNanos, TimeUnit.NANOSECONDS);
    if (call.result.isCancelled()) {
      // Cancelled before the task was stored: the listener above found none to cancel.
      call.cancelled();
    }
    return call.result;
  }

  private void latencyPassed() {
    if (result.isDone()) {
      return;
    }
    if (attempt == null) {
      result.completeExceptionally(injection.fault());
      return;
    }
    CompletionStage<?> stage;
    try (CallContext.Scope restored = context.restore()) {
      Object returned = attempt.call();
      if (returned == null) {
        throw new NullPointerException("the delegate returned null instead of a future");
      }
      stage = (CompletionStage<?>) returned;
    } catch (Throwable thrown) {
      result.completeExceptionally(thrown);
      return;
    }
    called = stage;
    stage.whenComplete((value, failure) -> {
      if (failure == null) {
        result.complete(value);
      } else {
        result.completeExceptionally(failure);
      }
    });
    if (result.isCancelled()) {
      cancel(stage);
    }
  }

  private static void cancel(CompletionStage<?> stage) {
    try {
      stage.toCompletableFuture().cancel(true);
    } catch (UnsupportedOperationException notCancellable) {
      // A stage that cannot be a future cannot be cancelled either: its outcome is dropped.
    }
  }

  private void cancelled() {
    ScheduledFuture<?> pending = task;
    if (pending != null) {
      pending.cancel(false);
    }
    CompletionStage<?> delegate = called;
    if (delegate != null) {
      cancel(delegate);
    }
  }
}
