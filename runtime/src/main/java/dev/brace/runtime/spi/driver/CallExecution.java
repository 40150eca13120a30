package dev.brace.runtime.spi.driver;

import dev.brace.runtime.support.Arguments;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One call in progress, walked attempt by attempt by a driver that decides nothing: the runtime
 * decides admission, the attempt's bound, what an outcome counts as, whether and when to retry and
 * whether the fallback answers; the driver only moves the call on in its own form (waits as tasks,
 * outcomes as signals). Made by {@link ResolvedCall#begin}.
 *
 * <p>The protocol, for each attempt:
 *
 * <ol>
 *   <li>{@link #startAttempt()};
 *   <li>{@link #admit()} until it answers {@link Admission.Admitted} or {@link Admission.Refused},
 *       waiting what each {@link Admission.Wait} says in between;
 *   <li>once admitted: {@link #attemptBoundNanos()} (the driver's deadline for the attempt), then
 *       {@link #launch}; then exactly one of {@link #succeeded}, {@link #failed}, {@link
 *       #timedOut()} (the bound passed first) or {@link #abandon()} (the caller gave up);
 *   <li>after a failure or a refusal: {@link #retryDelay} — a next attempt after that many
 *       nanoseconds, or {@link #NO_RETRY};
 * </ol>
 *
 * and at the end, once: {@link #ended} (how the call ended, before a fallback runs), then, for a
 * failure, {@link #fallbackAnswering} and {@link #callFallback}.
 *
 * <p>Confined: one step at a time, each step seeing what the previous one wrote (a driver hands
 * over through a lock or a scheduler). Steps that run on another thread than the caller's run in
 * the caller's context ({@link #inCallersContext}, {@link #enterCallersContext}).
 */
public interface CallExecution {

  /** What {@link #retryDelay} answers when the call ends with the failure. */
  long NO_RETRY = -1;

  /**
   * Starts the next attempt (the first, after {@link ResolvedCall#begin}).
   *
   * @return its number, from 1
   */
  int startAttempt();

  /**
   * Asks breaker, limiter and bulkhead, in call order, whether the attempt may start; never blocks.
   * Asked again after a {@link Admission.Wait}, it goes on where it stopped.
   *
   * @return admitted, wait how long, or refused with what (whatever was taken is then given back)
   */
  Admission admit();

  /**
   * @return nanoseconds from now the admitted attempt may take before the driver reports {@link
   *     #timedOut()} (its timeout, or what is left of the caller's deadline, the earlier); -1 for no bound
   */
  long attemptBoundNanos();

  /**
   * Runs the admitted attempt's delegate call: with the attempt's bound as the deadline the calls it
   * makes inherit, and with fault injection in front of it where the call has some.
   *
   * @param delegate the delegate's call for this attempt
   * @return what the delegate returned; or, when fault injection stands in for it, a {@code
   *     CompletionStage} that fails with the injected fault or, after an injected latency, completes
   *     with what {@link DelegateCall#detached() the detached call} then returned
   * @throws Throwable what the delegate threw: report it with {@link #failed}
   */
  Object launch(DelegateCall delegate) throws Throwable;

  /**
   * The attempt ended with a result: recorded, and what it held given back.
   *
   * @param result what it returned, or null (a stream that completed)
   * @throws RuntimeException what the breaker's result predicate threw: the attempt failed with it
   *     instead (everything is given back all the same); ask {@link #retryDelay} about it
   */
  void succeeded(Object result);

  /**
   * The attempt ended with a failure: recorded, and what it held given back.
   *
   * @param failure what it threw
   * @return the failure to decide on ({@link #retryDelay}), as the call sees it
   */
  Throwable failed(Throwable failure);

  /**
   * The attempt's bound ({@link #attemptBoundNanos()}) passed before its outcome: recorded as its
   * failure, and what it held given back. The driver stops the attempt's work itself.
   *
   * @return the timeout's or the deadline's failure, to decide on
   */
  Throwable timedOut();

  /**
   * The caller gave up while an attempt was waiting for admission or running: what it holds is
   * given back, and no outcome is recorded.
   */
  void abandon();

  /**
   * Asks the retry about a failed or refused attempt.
   *
   * @param failure what {@link #failed}, {@link #timedOut()} or the refusal gave
   * @return nanoseconds to wait before the next attempt ({@link #startAttempt()}), or {@link
   *     #NO_RETRY}: the call ends with {@code failure}, the earlier attempts' failures attached
   */
  long retryDelay(Throwable failure);

  /**
   * Ends the call: reported once (metrics), when its result or the failure that ends it is known,
   * before a fallback runs.
   *
   * @param failure what ends the call, or null when it ends with a result; a failure the retry was
   *     not asked about (a stream that failed after passing elements on) gets the earlier attempts'
   *     failures attached here
   */
  void ended(Throwable failure);

  /**
   * @param failure what ended the call
   * @return the exception the fallback receives (the failure, or the cause its {@code on} matched),
   *     reported as the fallback's use; null when no fallback answers it
   */
  Throwable fallbackAnswering(Throwable failure);

  /**
   * Calls the fallback method.
   *
   * @param target the delegate
   * @param arguments the call's arguments
   * @param answering what {@link #fallbackAnswering} returned
   * @return the fallback's answer, in the method's return type
   * @throws Throwable what the fallback threw: end the call with {@link #fallbackFailed}
   */
  Object callFallback(Object target, Arguments arguments, Throwable answering) throws Throwable;

  /**
   * @param fallbackFailure what the fallback threw
   * @param original the failure it answered
   * @return what the call ends with: the fallback's failure, the original attached as suppressed
   */
  Throwable fallbackFailed(Throwable fallbackFailure, Throwable original);

  /** @return the registry's scheduler, for the waits, backoffs and bounds a driver keeps as tasks */
  ScheduledExecutorService scheduler();

  /**
   * @param step a step to run on another thread
   * @return {@code step}, run in the caller's context captured when the call began
   */
  Runnable inCallersContext(Runnable step);

  /** @return the caller's context installed on this thread until the scope is closed */
  CallerScope enterCallersContext();
}
