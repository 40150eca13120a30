package dev.brace.runtime.internal.chaos;

import dev.brace.runtime.TimeSource;
import dev.brace.runtime.internal.policy.CallerInterrupted;
import dev.brace.runtime.spi.driver.DelegateCall;
import java.time.Duration;

/**
 * A synchronous attempt with what fault injection drew for it: it sleeps the latency on the
 * registry's clock — inside the attempt's timeout, so a deadline interrupts it (or abandons it) as
 * it would a slow dependency — and then throws the fault, or calls the delegate.
 */
final class InjectedAttempt implements DelegateCall {
  private final FaultInjection injection;
  private final FaultInjection.Injection drawn;
  private final TimeSource time;
  private final DelegateCall delegate;

  InjectedAttempt(FaultInjection injection, FaultInjection.Injection drawn, TimeSource time, DelegateCall delegate) {
    this.injection = injection;
    this.drawn = drawn;
    this.time = time;
    this.delegate = delegate;
  }

  /**
   * @throws CallerInterrupted when the latency's sleep is interrupted, the interrupt set again: the
   *     attempt never reached the delegate, so no pattern takes it for the dependency's doing (a
   *     timeout whose deadline fired reports itself instead)
   */
  @Override
  public Object call() throws Throwable {
    if (drawn.delays()) {
      try {
        time.sleep(Duration.ofNanos(injection.latencyNanos()));
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        throw new CallerInterrupted(
            "the latency injected by fault injection '" + injection.config().name() + "' was interrupted", interrupted);
      }
    }
    if (drawn.fails()) {
      throw injection.fault();
    }
    return delegate.call();
  }

  /** An abandoning timeout runs the attempt on a worker of its own: it keeps what was drawn. */
  @Override
  public DelegateCall detached() {
    DelegateCall copy = delegate.detached();
    return copy == delegate ? this : new InjectedAttempt(injection, drawn, time, copy);
  }
}
