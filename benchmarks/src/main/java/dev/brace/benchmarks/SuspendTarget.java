package dev.brace.benchmarks;

import kotlin.coroutines.Continuation;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * The {@code suspend} target: a {@code suspend} function that returns its value without
 * suspending, as a {@code suspend fun} whose answer is already at hand does (the counterpart of
 * {@link AsyncTarget}'s completed future). It never touches its continuation, so the call costs a
 * few nanoseconds and allocates nothing; whatever a library adds on top is that library's cost.
 * Every library wraps this very method.
 */
public final class SuspendTarget implements BraceClients.SuspendRetryOnly, BraceClients.SuspendFourPatterns {

  private final String value = "ok";

  // Not inlined, like Target.call().
  @Override
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  public Object call(Continuation<? super String> continuation) {
    return value;
  }
}
