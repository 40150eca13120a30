package dev.brace.runtime.internal.policy;

import dev.brace.runtime.internal.context.CallContext;
import dev.brace.runtime.spi.driver.DelegateCall;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One attempt of an {@code ABANDON} timeout: it runs on a worker thread, in the caller's context,
 * while the caller waits for its outcome or its deadline. The caller may give up on it ({@link
 * #abandon}); the worker is then interrupted, exactly while it runs this attempt and never after:
 * a worker thread that a pool reuses must not carry an interrupt meant for an attempt it finished.
 *
 * @param <T> the attempt's result type
 */
final class AbandonableAttempt<T> extends AtomicInteger implements Runnable {
  private static final long serialVersionUID = 1L;
  private static final int WAITING = 0;
  private static final int RUNNING = 1;
  private static final int DONE = 2;
  private static final int INTERRUPTING = 3;
  private static final int INTERRUPTED = 4;
  private static final int ABANDONED = 5;

  private final transient DelegateCall attempt;
  private final transient CallContext context;
  private final transient Thread caller;
  private transient volatile Thread worker;
  private transient T result;
  private transient Throwable failure;

  AbandonableAttempt(DelegateCall attempt, CallContext context, Thread caller) {
    this.attempt = attempt;
    this.context = context;
    this.caller = caller;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void run() {
    // Published before the state that lets the caller interrupt it.
    worker = Thread.currentThread();
    boolean abandonedEarly = !compareAndSet(WAITING, RUNNING);
    if (abandonedEarly) {
      // The caller gave up before a worker took the attempt: it runs interrupted from the start,
      // as it would have on a thread of its own interrupted at the deadline, and ends at once if
      // it answers interrupts.
      worker.interrupt();
    }
    try (CallContext.Scope restored = context.restore()) {
      result = (T) attempt.call();
    } catch (Throwable thrown) {
      failure = thrown;
    }
    if (!abandonedEarly && compareAndSet(RUNNING, DONE)) {
      LockSupport.unpark(caller);
      return;
    }
    // Abandoned: wait for the interrupt to land, then clear it off this thread. The caller is
    // long gone, so it is not woken (a stray wake-up could cut short its next wait).
    while (get() == INTERRUPTING) {
      Thread.onSpinWait();
    }
    Thread.interrupted();
  }

  /**
   * Waits, on the caller's thread, until the attempt is done or the caller is interrupted (by the
   * deadline or by anyone else).
   *
   * @return true when interrupted; the interrupt flag is then cleared
   */
  boolean await() {
    while (get() != DONE) {
      if (Thread.interrupted()) {
        return true;
      }
      LockSupport.park(this);
    }
    return false;
  }

  /** @return whether the attempt has its outcome */
  boolean done() {
    return get() == DONE;
  }

  /**
   * @return the attempt's result
   * @throws Throwable what it threw
   */
  T outcome() throws Throwable {
    if (failure != null) {
      throw failure;
    }
    return result;
  }

  /** Gives up on the attempt: interrupts the worker if it is running it, or has it start interrupted. */
  void abandon() {
    if (compareAndSet(RUNNING, INTERRUPTING)) {
      worker.interrupt();
      set(INTERRUPTED);
    } else {
      compareAndSet(WAITING, ABANDONED);
    }
  }
}
