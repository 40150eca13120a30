package dev.brace.runtime.internal.sequence;

import dev.brace.runtime.internal.context.CallContext;

/**
 * The caller's context of one asynchronous call, and where its steps run: a step on the caller's
 * thread while the call is still being started there runs as it is; a step anywhere else (the
 * scheduler's thread, whichever thread completes a future) runs in the context the call captured
 * when it started, and leaves the thread's own context as it found it.
 */
final class AsyncContext {
  final CallContext captured;
  /** The caller's thread until the call's first steps have returned there; then null. */
  private volatile Thread starting;

  private AsyncContext(CallContext captured, Thread starting) {
    this.captured = captured;
    this.starting = starting;
  }

  /** @return the context of the current thread, captured now, which is still starting the call */
  static AsyncContext ofCaller() {
    return new AsyncContext(CallContext.capture(), Thread.currentThread());
  }

  /** The call's first steps have returned to the caller: from now on every step restores the context. */
  void started() {
    starting = null;
  }

  /** @return whether a step runs as it is, here and now: on the caller's thread while the call starts */
  boolean runsAsItIs() {
    return Thread.currentThread() == starting;
  }

  /** @return {@code step}, run in the caller's context unless it runs on the caller's thread while the call starts */
  Runnable wrap(Runnable step) {
    return () -> {
      if (runsAsItIs()) {
        step.run();
        return;
      }
      try (CallContext.Scope restored = captured.restore()) {
        step.run();
      }
    };
  }
}
