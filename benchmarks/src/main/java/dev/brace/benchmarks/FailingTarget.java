package dev.brace.benchmarks;

import org.openjdk.jmh.annotations.CompilerControl;

/**
 * A dependency that is down: every call throws a new {@link DependencyDown}. Every library wraps
 * this very method, so the exception each attempt allocates is the same for all of them and what
 * differs in B/op is the library's own.
 */
public final class FailingTarget implements BraceClients.FailingFourPatterns {

  /**
   * The failure, without a stack trace: filling one in costs microseconds that would drown what
   * the libraries do with it. Suppression stays on, as on any exception, so a library that
   * attaches the earlier attempts' failures pays for it.
   */
  public static final class DependencyDown extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DependencyDown() {
      super("down", null, true, false);
    }
  }

  // Not inlined, like Target.call().
  @Override
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  public String call() {
    throw new DependencyDown();
  }
}
