package dev.brace.benchmarks;

import org.openjdk.jmh.annotations.CompilerControl;
import reactor.core.publisher.Mono;

/**
 * The reactive target: returns a {@code Mono.just} made before the benchmark starts, so the call
 * allocates nothing and its subscription answers at once, on the subscriber's thread. Whatever a
 * library adds on top (its publisher, its subscribers, its bookkeeping) is that library's cost.
 * Every library wraps this very method.
 */
public final class MonoTarget implements BraceClients.MonoRetryOnly, BraceClients.MonoFourPatterns {

  private final Mono<String> done = Mono.just("ok");

  // Not inlined, like Target.call().
  @Override
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  public Mono<String> call() {
    return done;
  }
}
