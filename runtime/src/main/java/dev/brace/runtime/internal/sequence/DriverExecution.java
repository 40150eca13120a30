package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.config.ExceptionFilter;
import dev.brace.runtime.internal.attempt.AttemptPipeline;
import dev.brace.runtime.internal.attempt.AttemptTicket;
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
 * its steps (its keys, start, retry run, attempt number and the ticket its attempts go through the
 * pipeline with) kept here, and every step one of the call's {@link CallSequence} or {@link
 * AttemptPipeline}, as the runtime's own drivers take them.
 */
final class DriverExecution implements CallExecution {
  private final CallSequence sequence;
  private final AttemptPipeline pipeline;
  private final CallContext context = CallContext.capture();
  private final AttemptTicket ticket = new AttemptTicket();
  private final CallKeys keys;
  private final long started;
  private RetryRun run;
  private int number;
  /** The failure the retry last ended the call with: it attached the earlier failures to it already. */
  private Throwable decided;

  DriverExecution(CallSequence sequence, Arguments arguments) {
    this.sequence = sequence;
    this.pipeline = sequence.attempts();
    this.keys = sequence.keys(arguments);
    this.started = sequence.begin(ticket);
  }

  @Override
  public int startAttempt() {
    ticket.start(keys);
    return ++number;
  }

  @Override
  public Admission admit() {
    switch (pipeline.admit(ticket)) {
      case ADMITTED:
        return Admission.ADMITTED;
      case WAIT:
        return new Admission.Wait(ticket.waitNanos());
      default:
        return new Admission.Refused(ExceptionFilter.unwrap(ticket.refusal()));
    }
  }

  @Override
  public long attemptBoundNanos() {
    return pipeline.bounds().attemptNanos(ticket);
  }

  @Override
  public Object launch(DelegateCall delegate) throws Throwable {
    return pipeline.bounds().launch(ticket, delegate);
  }

  @Override
  public void succeeded(Object result) {
    pipeline.succeeded(ticket, result);
  }

  @Override
  public Throwable failed(Throwable failure) {
    return pipeline.failed(ticket, failure);
  }

  @Override
  public Throwable timedOut() {
    return pipeline.failed(ticket, pipeline.bounds().timedOut(ticket));
  }

  @Override
  public void abandon() {
    pipeline.abandon(ticket);
  }

  @Override
  public long retryDelay(Throwable failure) {
    RetryRun next = CallRetry.retrying(sequence, run, number, started, failure);
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
      CallRetry.endedWith(sequence, run, started, failure);
    } else {
      sequence.ended(started, failure);
    }
  }

  @Override
  public Throwable fallbackAnswering(Throwable failure) {
    return CallFallback.answering(sequence, failure);
  }

  @Override
  public Object callFallback(Object target, Arguments arguments, Throwable answering) throws Throwable {
    return CallFallback.call(sequence, target, arguments, answering);
  }

  @Override
  public Throwable fallbackFailed(Throwable fallbackFailure, Throwable original) {
    return CallFallback.withOriginal(fallbackFailure, original);
  }

  @Override
  public ScheduledExecutorService scheduler() {
    return sequence.scheduler();
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
