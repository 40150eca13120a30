package dev.brace.benchmarks;

import org.openjdk.jmh.annotations.CompilerControl;

/**
 * The protected call: returns a value kept in a field, so the call itself costs a few
 * nanoseconds and allocates nothing. It implements every annotated interface of
 * {@link BraceClients} so that all libraries wrap the very same method.
 */
public final class Target
    implements BraceClients.RetryOnly,
        BraceClients.ClassicBreaker,
        BraceClients.RateBreaker,
        BraceClients.SlowCallBreaker,
        BraceClients.LimiterOnly,
        BraceClients.BulkheadOnly,
        BraceClients.AdaptiveBulkheadOnly,
        BraceClients.TimeoutOnly,
        BraceClients.TimeoutAbandonOnly,
        BraceClients.FourPatterns,
        BraceClients.SixPatterns {

  private final String value = "ok";

  // Not inlined: otherwise the JIT could fold a direct call away and every ratio would lie.
  @Override
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  public String call() {
    return value;
  }
}
