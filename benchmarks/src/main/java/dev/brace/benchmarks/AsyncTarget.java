package dev.brace.benchmarks;

import java.util.concurrent.CompletableFuture;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * The asynchronous target: returns a future completed before the benchmark starts, so the call
 * costs a few nanoseconds, allocates nothing and never hops threads. Whatever a wrapper adds on
 * top (its own future, callbacks, scheduling) is the wrapper's cost. Every library wraps this
 * very method.
 */
public final class AsyncTarget
    implements BraceClients.AsyncRetryOnly, BraceClients.AsyncFourPatterns, BraceClients.AsyncHedgeOnly {

  private final CompletableFuture<String> done = CompletableFuture.completedFuture("ok");

  // Not inlined, like Target.call().
  @Override
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  public CompletableFuture<String> call() {
    return done;
  }
}
