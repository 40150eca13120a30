package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptState;
import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.internal.policy.RetryRun;
import dev.brace.runtime.spi.driver.Admission;
import dev.brace.runtime.spi.driver.CallExecution;
import dev.brace.runtime.spi.driver.CallerScope;
import dev.brace.runtime.spi.driver.DelegateCall;
import dev.brace.runtime.support.Arguments;
import dev.brace.runtime.support.CallKeys;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A call walked by a driver outside the runtime, through the driver SPI: the call's state between
 * its steps (its keys, start, retry run, attempt number and the attempt's state its attempts go through the
 * pipeline with) kept here, and every step one of the call's {@link CallPolicies} or {@link
 * AttemptPipeline}, as the runtime's own drivers take them.
 */
final class DriverExecution implements CallExecution {
  private final CallPolicies policies;
  private final AttemptPipeline pipeline;
  private final CallContext context = CallContext.capture();
  private final AttemptState attemptState = new AttemptState();
  private final CallKeys keys;
  private final long started;
  private RetryRun run;
  private int number;
  /** The failure the retry last ended the call with: it attached the earlier failures to it already. */
  private Throwable decided;

  DriverExecution(CallPolicies policies, Arguments arguments) {
    this.policies = policies;
    this.pipeline = policies.attempts();
    this.keys = policies.keys(arguments);
    this.started = policies.begin(attemptState);
  }

  @Override
  public int startAttempt() {
    attemptState.start(keys);
    return ++number;
  }

  @Override
  public Admission admit() {
    switch (pipeline.admit(attemptState)) {
      case ADMITTED:
        return Admission.ADMITTED;
      case WAIT:
        return new Admission.Wait(attemptState.waitNanos());
      default:
        return new Admission.Refused(ExceptionFilter.unwrap(attemptState.refusal()));
    }
  }

  @Override
  public long attemptBoundNanos() {
    return pipeline.bounds().attemptNanos(attemptState);
  }

  @Override
  public Object launch(DelegateCall delegate) throws Throwable {
    return pipeline.bounds().launch(attemptState, delegate);
  }

  @Override
  public void succeeded(Object result) {
    pipeline.succeeded(attemptState, result);
  }

  @Override
  public Throwable failed(Throwable failure) {
    return pipeline.failed(attemptState, failure);
  }

  @Override
  public Throwable timedOut() {
    return pipeline.failed(attemptState, pipeline.bounds().timedOut(attemptState));
  }

  @Override
  public void abandon() {
    pipeline.abandon(attemptState);
  }

  @Override
  public long retryDelay(Throwable failure) {
    RetryRun next = CallRetry.retrying(policies, run, number, started, failure);
    if (next == null) {
      decided = failure;
      return NO_RETRY;
    }
    run = next;
    return next.waitNanos();
  }

  @Override
  public void ended(Throwable failure) {
    if (failure != null && failure != decided) {
      // A failure the retry was not asked about (a stream's, after elements were passed on).
      CallRetry.endedWith(policies, run, started, failure);
    } else {
      policies.ended(started, failure);
    }
  }

  @Override
  public Throwable fallbackAnswering(Throwable failure) {
    return CallFallback.answering(policies, failure);
  }

  @Override
  public Object callFallback(Object target, Arguments arguments, Throwable answering) throws Throwable {
    return CallFallback.call(policies, target, arguments, answering);
  }

  @Override
  public Throwable fallbackFailed(Throwable fallbackFailure, Throwable original) {
    return CallFallback.withOriginal(fallbackFailure, original);
  }

  @Override
  public ScheduledExecutorService scheduler() {
    return policies.scheduler();
  }

  @Override
  public Runnable inCallersContext(Runnable step) {
    return context.wrap(step);
  }

  @Override
  public CallerScope enterCallersContext() {
    return context.restore();
  }
}
